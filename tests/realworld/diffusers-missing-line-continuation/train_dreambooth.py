import argparse

parser = argparse.ArgumentParser()
parser.add_argument("--pretrained_model_name_or_path")
parser.add_argument("--output_dir")
parser.add_argument("--train_batch_size", type=int)
parser.add_argument("--learning_rate", type=float)
parser.add_argument("--mixed_precision", choices=["no", "fp16", "bf16"])
parser.add_argument("--max_train_steps", type=int)
args = parser.parse_args()
