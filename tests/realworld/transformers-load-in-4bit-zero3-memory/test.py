import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM

accelerator = Accelerator()
model = AutoModelForCausalLM.from_pretrained(
    "huggyllama/llama-65b",
    load_in_4bit=True,
    torch_dtype=torch.bfloat16,
)
model = accelerator.prepare(model)
