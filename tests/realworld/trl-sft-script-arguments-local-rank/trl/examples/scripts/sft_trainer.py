from dataclasses import dataclass, field
from typing import Optional

from datasets import load_dataset
from transformers import AutoModelForCausalLM, HfArgumentParser, TrainingArguments

from trl import SFTTrainer


@dataclass
class ScriptArguments:
    model_name: Optional[str] = field(default="facebook/opt-350m", metadata={"help": "the model name"})
    dataset_name: Optional[str] = field(default="timdettmers/openassistant-guanaco")
    dataset_text_field: Optional[str] = field(default="text")
    learning_rate: Optional[float] = field(default=1.41e-5)
    batch_size: Optional[int] = field(default=64)
    gradient_accumulation_steps: Optional[int] = field(default=16)
    output_dir: Optional[str] = field(default="output")


parser = HfArgumentParser(ScriptArguments)
script_args = parser.parse_args_into_dataclasses()[0]

model = AutoModelForCausalLM.from_pretrained(script_args.model_name)
dataset = load_dataset(script_args.dataset_name, split="train")

training_args = TrainingArguments(
    output_dir=script_args.output_dir,
    per_device_train_batch_size=script_args.batch_size,
    gradient_accumulation_steps=script_args.gradient_accumulation_steps,
    learning_rate=script_args.learning_rate,
    deepspeed="trl/examples/scripts/ds_config.json",
)

trainer = SFTTrainer(model=model, args=training_args, train_dataset=dataset,
                     dataset_text_field=script_args.dataset_text_field)
trainer.train()
