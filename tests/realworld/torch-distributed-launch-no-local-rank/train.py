from argparse import ArgumentParser

parser = ArgumentParser()
parser.add_argument("--exp_id", default="NULL")
parser.add_argument("--stage", default="02")
args = parser.parse_args()
