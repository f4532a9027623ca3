from transformers import AutoModelForCausalLM, Trainer, TrainingArguments

model = AutoModelForCausalLM.from_pretrained("EleutherAI/gpt-j-6B", load_in_8bit=True, device_map="auto")
training_args = TrainingArguments(
    output_dir="gptj-supervised-summarize-checkpoint",
    per_device_train_batch_size=16,
    gradient_accumulation_steps=1,
    fp16=True,
)
trainer = Trainer(model=model, args=training_args)
trainer.train()
