from dataclasses import dataclass, field
from typing import Optional

import transformers
from trl import SFTTrainer


@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = field(default=None)
    torch_dtype: Optional[str] = field(default="bfloat16")


@dataclass
class DataArguments:
    data_path: Optional[str] = field(default=None)


def main():
    parser = transformers.HfArgumentParser((ModelArguments, DataArguments, transformers.TrainingArguments))
    model_args, data_args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path)
    trainer = SFTTrainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
