import argparse

parser = argparse.ArgumentParser()
parser.add_argument("model_id")
args = parser.parse_args()
