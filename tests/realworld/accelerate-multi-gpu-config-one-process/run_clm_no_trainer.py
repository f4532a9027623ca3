# transformers' examples/pytorch/language-modeling/run_clm_no_trainer.py (2022), reduced to the lines that matter.
import argparse

from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str)
    parser.add_argument("--dataset_name", type=str)
    parser.add_argument("--dataset_config_name", type=str)
    parser.add_argument("--per_device_train_batch_size", type=int, default=8)
    parser.add_argument("--per_device_eval_batch_size", type=int, default=8)
    parser.add_argument("--num_train_epochs", type=int, default=3)
    parser.add_argument("--block_size", type=int, default=None)
    args = parser.parse_args()
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path)
    model = accelerator.prepare(model)


if __name__ == "__main__":
    main()
