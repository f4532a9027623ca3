from accelerate import Accelerator
from peft import LoraConfig, get_peft_model
from transformers import AutoModelForCausalLM

accelerator = Accelerator()
model = AutoModelForCausalLM.from_pretrained("decapoda-research/llama-7b-hf")
model.enable_input_require_grads()
model.gradient_checkpointing_enable()
model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"]))
model = accelerator.prepare(model)
