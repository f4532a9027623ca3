import torch
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments

training_args = TrainingArguments(output_dir="out", per_device_train_batch_size=1, fp16=True)
bnb_config = BitsAndBytesConfig(
    load_in_4bit=True,
    bnb_4bit_quant_type="nf4",
    bnb_4bit_compute_dtype=torch.float16,
    bnb_4bit_use_double_quant=True,
)
model = AutoModelForCausalLM.from_pretrained("meta-llama/Llama-2-7b-hf", quantization_config=bnb_config, torch_dtype=torch.float16)
model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16, task_type="CAUSAL_LM"))
trainer = Trainer(model=model, args=training_args, train_dataset=train_dataset)
trainer.train()
