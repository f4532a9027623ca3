import argparse

parser = argparse.ArgumentParser(description="PyTorch GPT2 ft script")
parser.add_argument("--local_rank", default=0, type=int)
parser.add_argument("--train_data", required=True)
parser.add_argument("--lora_dim", type=int, default=0)
args = parser.parse_args()
