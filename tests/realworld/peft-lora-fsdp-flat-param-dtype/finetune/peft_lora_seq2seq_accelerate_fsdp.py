import torch
from accelerate import Accelerator
from peft import LoraConfig, TaskType, get_peft_model
from transformers import AutoModelForSeq2SeqLM


def main():
    accelerator = Accelerator()
    model_name_or_path = "t5-base"
    peft_config = LoraConfig(task_type=TaskType.SEQ_2_SEQ_LM, inference_mode=False, r=8, lora_alpha=32, lora_dropout=0.1)
    model = AutoModelForSeq2SeqLM.from_pretrained(model_name_or_path, torch_dtype=torch.float16)
    model = get_peft_model(model, peft_config)
    model = accelerator.prepare(model)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    optimizer, lr_scheduler = accelerator.prepare(optimizer, lr_scheduler)


if __name__ == "__main__":
    main()
