from datasets import load_dataset
from trl import SFTConfig, SFTTrainer

dataset = load_dataset("json", data_files="train.jsonl", split="train")

args = SFTConfig(
    output_dir="out",
    per_device_train_batch_size=4,
    gradient_accumulation_steps=2,
    learning_rate=3e-5,
    num_train_epochs=1,
    deepspeed="ds_config.json",
)
trainer = SFTTrainer(model="Qwen/Qwen2.5-1.5B-Instruct", args=args, train_dataset=dataset)
trainer.train()
