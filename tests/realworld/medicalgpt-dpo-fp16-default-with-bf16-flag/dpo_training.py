# MedicalGPT dpo_training.py of March 2025 (reduced to the arguments and the DPOConfig call)
from dataclasses import dataclass, field
from typing import Optional

from transformers import AutoModelForCausalLM, AutoTokenizer, HfArgumentParser
from trl import DPOConfig, DPOTrainer


@dataclass
class ScriptArguments:
    model_name_or_path: Optional[str] = field(default=None)
    tokenizer_name_or_path: Optional[str] = field(default=None)
    template_name: Optional[str] = field(default="vicuna")
    train_file_dir: Optional[str] = field(default=None)
    validation_file_dir: Optional[str] = field(default=None)
    per_device_train_batch_size: Optional[int] = field(default=4)
    per_device_eval_batch_size: Optional[int] = field(default=1)
    max_source_length: Optional[int] = field(default=256)
    max_target_length: Optional[int] = field(default=256)
    max_train_samples: Optional[int] = field(default=None)
    max_eval_samples: Optional[int] = field(default=None)
    use_peft: bool = field(default=True)
    target_modules: Optional[str] = field(default=None)
    lora_rank: Optional[int] = field(default=8)
    lora_dropout: Optional[float] = field(default=0.05)
    lora_alpha: Optional[float] = field(default=16.0)
    do_train: bool = field(default=False)
    do_eval: bool = field(default=False)
    learning_rate: Optional[float] = field(default=5e-4)
    fp16: Optional[bool] = field(default=True, metadata={"help": "Whether to use fp16"})
    bf16: Optional[bool] = field(default=False, metadata={"help": "Whether to use bf16"})
    gradient_checkpointing: Optional[bool] = field(default=True)
    gradient_accumulation_steps: Optional[int] = field(default=4)
    max_steps: Optional[int] = field(default=200)
    eval_steps: Optional[int] = field(default=50)
    save_steps: Optional[int] = field(default=50)
    output_dir: Optional[str] = field(default="outputs-dpo")
    torch_dtype: Optional[str] = field(default="float16")
    device_map: Optional[str] = field(default="auto")
    report_to: Optional[str] = field(default="tensorboard")
    remove_unused_columns: Optional[bool] = field(default=False)
    cache_dir: Optional[str] = field(default=None)


def main():
    parser = HfArgumentParser(ScriptArguments)
    args = parser.parse_args_into_dataclasses()[0]

    tokenizer = AutoTokenizer.from_pretrained(args.model_name_or_path)
    model = AutoModelForCausalLM.from_pretrained(args.model_name_or_path, device_map=args.device_map)

    training_args = DPOConfig(
        per_device_train_batch_size=args.per_device_train_batch_size,
        per_device_eval_batch_size=args.per_device_eval_batch_size,
        max_steps=args.max_steps,
        logging_steps=1,
        save_steps=args.save_steps,
        gradient_accumulation_steps=args.gradient_accumulation_steps,
        gradient_checkpointing=args.gradient_checkpointing,
        learning_rate=args.learning_rate,
        eval_strategy="steps" if args.do_eval else "no",
        eval_steps=args.eval_steps,
        output_dir=args.output_dir,
        report_to=args.report_to,
        remove_unused_columns=args.remove_unused_columns,
        bf16=args.bf16,
        fp16=args.fp16,
    )
    trainer = DPOTrainer(model, ref_model=None, args=training_args, processing_class=tokenizer)
    trainer.train()


if __name__ == "__main__":
    main()
