import torch
from torch import nn
from transformers import LlamaForCausalLM
from peft import LoraConfig, get_peft_model
from config import Config


class LlamaLoraModel(nn.Module):
    def __init__(self):
        super(LlamaLoraModel, self).__init__()
        model = LlamaForCausalLM.from_pretrained(
            Config.base_model,
            # load_in_8bit=Config.load_in_8bit,
            torch_dtype=torch.float16,
            device_map="auto"
        )
        lora_config = LoraConfig(
            r=Config.lora_r,
            lora_alpha=Config.lora_alpha,
            target_modules=Config.lora_target_modules,
            lora_dropout=Config.lora_dropout,
            bias="none",
            task_type="CAUSAL_LM"
        )
        self.peft_model = get_peft_model(model, lora_config)
