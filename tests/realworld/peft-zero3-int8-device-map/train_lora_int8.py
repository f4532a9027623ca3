import torch
from accelerate import Accelerator
from peft import LoraConfig, TaskType, get_peft_model
from transformers import AutoModelForSeq2SeqLM


def main():
    accelerator = Accelerator()
    model = AutoModelForSeq2SeqLM.from_pretrained(
        "google/flan-t5-xxl",
        load_in_8bit=True,
        device_map={"": 0},
        torch_dtype=torch.float16,
    )
    peft_config = LoraConfig(task_type=TaskType.SEQ_2_SEQ_LM, r=16, lora_alpha=32, lora_dropout=0.05)
    model = get_peft_model(model, peft_config)
    model = accelerator.prepare(model)


if __name__ == "__main__":
    main()
