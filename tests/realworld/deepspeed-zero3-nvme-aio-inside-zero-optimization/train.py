# The notebook's training cell, reduced to the lines that matter.
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

training_args = TrainingArguments(
    output_dir="gpt-j-finetuned",
    per_device_train_batch_size=1,
    gradient_accumulation_steps=8,
    fp16=True,
    deepspeed="ds_config_zero3.json",
)
model = AutoModelForCausalLM.from_pretrained("EleutherAI/gpt-j-6B")
trainer = Trainer(model=model, args=training_args, train_dataset=train_dataset)
trainer.train()
