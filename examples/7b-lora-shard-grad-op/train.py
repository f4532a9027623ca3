"""LoRA fine-tuning of a 7B causal LM with accelerate + peft (launched by launch.sh)."""
import torch
from accelerate import Accelerator
from peft import LoraConfig, get_peft_model
from peft.utils.other import fsdp_auto_wrap_policy
from transformers import AutoModelForCausalLM

MODEL = "meta-llama/Llama-2-7b-hf"


def main():
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained(MODEL, torch_dtype=torch.bfloat16)
    lora = LoraConfig(r=16, lora_alpha=32, target_modules=["q_proj", "k_proj", "v_proj", "o_proj"])
    model = get_peft_model(model, lora)
    # FSDP1 units must hold one dtype: PEFT's policy gives the (float32) LoRA layers units of their own.
    accelerator.state.fsdp_plugin.auto_wrap_policy = fsdp_auto_wrap_policy(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
    # ... training loop: no gradient checkpointing is enabled anywhere.


if __name__ == "__main__":
    main()
