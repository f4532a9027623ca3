import argparse
import os

from transformers import HfArgumentParser, TrainingArguments, set_seed

from component.argument import CustomizedArguments


def setup_everything():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train_args_file", type=str, default="train_args/sft.json", help="")
    args = parser.parse_args()
    train_args_file = args.train_args_file
    parser = HfArgumentParser((CustomizedArguments, TrainingArguments))
    args, training_args = parser.parse_json_file(json_file=train_args_file)
    if not os.path.exists(training_args.output_dir):
        os.makedirs(training_args.output_dir)
    set_seed(training_args.seed)
    return args, training_args


def main():
    args, training_args = setup_everything()


if __name__ == "__main__":
    main()
