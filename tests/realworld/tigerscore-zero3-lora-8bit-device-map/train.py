import logging
from dataclasses import dataclass, field
from typing import Optional

import torch
import transformers
from peft import LoraConfig, TaskType, get_peft_model, prepare_model_for_int8_training


@dataclass
class ModelArguments:
    model_name_or_path: Optional[str] = field(default="facebook/opt-125m")
    is_lora: Optional[bool] = field(default=False)


@dataclass
class DataArguments:
    train_data_path: str = field(default=None)


@dataclass
class TrainingArguments(transformers.TrainingArguments):
    cache_dir: Optional[str] = field(default=None)
    model_max_length: int = field(default=512)


def train():
    parser = transformers.HfArgumentParser((ModelArguments, DataArguments, TrainingArguments))
    model_args, data_args, training_args = parser.parse_args_into_dataclasses()

    if model_args.is_lora:
        logging.warning("Using LoRA model...")
        model = transformers.AutoModelForCausalLM.from_pretrained(
            model_args.model_name_or_path,
            cache_dir=training_args.cache_dir,
            device_map="auto",
            load_in_8bit=True,
            torch_dtype=torch.bfloat16,
            use_auth_token=True,
        )
        target_modules = ["q_proj", "k_proj"]
        peft_config = LoraConfig(
            task_type=TaskType.CAUSAL_LM, inference_mode=False,
            r=8, lora_alpha=16, lora_dropout=0.05,
            target_modules=target_modules,
        )
        model = prepare_model_for_int8_training(model)
        model = get_peft_model(model, peft_config)
    else:
        model = transformers.AutoModelForCausalLM.from_pretrained(
            model_args.model_name_or_path,
            cache_dir=training_args.cache_dir,
            use_auth_token=True,
            torch_dtype=torch.bfloat16,
        )
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    train()
