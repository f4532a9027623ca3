import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--model_path", default="fnlp/cpt-large", type=str)
parser.add_argument("--dataset", default="adgen", type=str)
parser.add_argument("--lr", default=2e-5, type=float)
parser.add_argument("--batch_size", default=50, type=int)
parser.add_argument("--epoch", default=5, type=int)
parser.add_argument("--data_dir", default="/path/to/dataset/", type=str)
args = parser.parse_args()
