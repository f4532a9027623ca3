import os
os.environ['CUDA_VISIBLE_DEVICES'] = '0,1,2,3,4,5,6,7'

import torch
from accelerate import Accelerator
from datasets import load_dataset
from peft import LoraConfig
from transformers import AutoModelForCausalLM, BitsAndBytesConfig, TrainingArguments
from transformers.integrations import HfDeepSpeedConfig
from trl import SFTTrainer

accelerator = Accelerator()
ds_config = "ds_config/3.json"
dschf = HfDeepSpeedConfig(ds_config)

bnb_config = BitsAndBytesConfig(
    load_in_4bit=True,
    bnb_4bit_use_double_quant=True,
    bnb_4bit_quant_type="nf4",
    bnb_4bit_compute_dtype=torch.bfloat16,
)
base_model = AutoModelForCausalLM.from_pretrained(
    "meta-llama/Llama-2-13b-chat-hf",
    quantization_config=bnb_config,
    torch_dtype=torch.bfloat16,
)
dataset = load_dataset("json", data_files="Belle_open_source_0.5M_changed.json", split="train")
training_args = TrainingArguments(
    output_dir="tmp",
    per_device_train_batch_size=1,
    gradient_accumulation_steps=4,
    bf16=True,
    deepspeed=ds_config,
)
peft_config = LoraConfig(r=64, lora_alpha=16, lora_dropout=0.1, task_type="CAUSAL_LM")
trainer = SFTTrainer(model=base_model, args=training_args, train_dataset=dataset, peft_config=peft_config)
trainer.train()
