import torch
from peft import LoraConfig
from transformers import AutoModelForCausalLM, BitsAndBytesConfig
from trl import SFTConfig, SFTTrainer

quantization_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
model = AutoModelForCausalLM.from_pretrained(
    "meta-llama/Llama-2-7b-hf", quantization_config=quantization_config, torch_dtype=torch.bfloat16
)
trainer = SFTTrainer(model=model, args=SFTConfig(output_dir="out"), peft_config=LoraConfig(r=16))
trainer.train()
