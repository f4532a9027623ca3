from dataclasses import dataclass, field

import transformers
from transformers import Trainer


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="huggyllama/llama-13b")


@dataclass
class DataArguments:
    data_path: str = field(default=None)


def train():
    parser = transformers.HfArgumentParser((ModelArguments, DataArguments, transformers.TrainingArguments))
    model_args, data_args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    Trainer(model=model, args=training_args).train()


if __name__ == "__main__":
    train()
