import argparse

parser = argparse.ArgumentParser(description="Megatron-LM Arguments")
parser.add_argument("--num-layers", type=int)
parser.add_argument("--hidden-size", type=int)
parser.add_argument("--local-rank", type=int, default=None)
args = parser.parse_args()
