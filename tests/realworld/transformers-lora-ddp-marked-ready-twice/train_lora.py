from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, HfArgumentParser, Trainer, TrainingArguments

(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()
model = AutoModelForCausalLM.from_pretrained("huggyllama/llama-7b")
model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
Trainer(model=model, args=args).train()
