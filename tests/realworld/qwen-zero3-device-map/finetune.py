from dataclasses import dataclass, field

import transformers


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="Qwen/Qwen-7B")


parser = transformers.HfArgumentParser((ModelArguments, transformers.TrainingArguments))
model_args, training_args = parser.parse_args_into_dataclasses()
model = transformers.AutoModelForCausalLM.from_pretrained(
    model_args.model_name_or_path, device_map="auto", trust_remote_code=True
)
trainer = transformers.Trainer(model=model, args=training_args)
trainer.train()
