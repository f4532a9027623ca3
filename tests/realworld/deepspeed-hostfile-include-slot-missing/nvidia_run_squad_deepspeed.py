import argparse
import deepspeed

parser = argparse.ArgumentParser()
parser.add_argument("--local_rank", type=int, default=-1)
parser.add_argument("--do_train", action="store_true")
parser.add_argument("--train_file")
parser.add_argument("--output_dir")
parser = deepspeed.add_config_arguments(parser)
args = parser.parse_args()
model_engine, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
