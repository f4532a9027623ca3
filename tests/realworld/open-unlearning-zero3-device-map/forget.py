import os

import hydra
import torch
import transformers
from transformers import AutoModelForCausalLM


@hydra.main(version_base=None, config_path="config", config_name="forget")
def main(cfg):
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    device_map = {"": local_rank}
    training_args = transformers.TrainingArguments(
        per_device_train_batch_size=cfg.batch_size,
        gradient_accumulation_steps=cfg.gradient_accumulation_steps,
        learning_rate=cfg.lr,
        bf16=True,
        output_dir=cfg.save_dir,
        deepspeed="config/ds_config.json",
    )
    model = AutoModelForCausalLM.from_pretrained(
        cfg.model_path, torch_dtype=torch.bfloat16, device_map=device_map
    )
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
