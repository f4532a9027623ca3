import torch
from accelerate import Accelerator
from transformers import AutoModelForCausalLM, BitsAndBytesConfig

accelerator = Accelerator()
bnb_config = BitsAndBytesConfig(
    load_in_8bit=True,
)
device_index = accelerator.local_process_index
device_map = {"": device_index}  # force data-parallel training.
model = AutoModelForCausalLM.from_pretrained(
    "meta-llama/Llama-2-7b-hf",
    load_in_8bit=True,
    quantization_config=bnb_config,
    device_map=device_map,
    torch_dtype=torch.bfloat16,
)
reference_model = model
model, optimizer, loader = accelerator.prepare(model, optimizer, loader)
