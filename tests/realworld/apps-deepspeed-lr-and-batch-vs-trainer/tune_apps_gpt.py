import argparse

import transformers

parser = argparse.ArgumentParser()
parser.add_argument("--grad-acc-steps", default=4, type=int)
parser.add_argument("--batch-size-per-replica", default=8, type=int)
parser.add_argument("--fp16", action="store_true")
parser.add_argument("--deepspeed", default=None, type=str)
parser.add_argument("--local_rank", default=-1, type=int)
args = parser.parse_args()

training_args = transformers.TrainingArguments(
    output_dir="out",
    learning_rate=5e-5,
    per_device_train_batch_size=args.batch_size_per_replica,
    gradient_accumulation_steps=args.grad_acc_steps,
    deepspeed=args.deepspeed,
    fp16=args.fp16,
)
