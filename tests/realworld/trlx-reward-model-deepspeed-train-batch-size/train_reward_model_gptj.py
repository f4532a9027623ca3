from transformers import Trainer, TrainingArguments

from reward_model import GPTRewardModel

training_args = TrainingArguments(
    output_dir="rm_checkpoint/",
    num_train_epochs=5,
    logging_steps=10,
    gradient_accumulation_steps=4,
    save_strategy="steps",
    eval_strategy="steps",
    per_device_train_batch_size=1,
    per_device_eval_batch_size=1,
    eval_accumulation_steps=1,
    eval_steps=500,
    save_steps=500,
    warmup_steps=100,
    fp16=True,
    bf16=False,
    learning_rate=1e-5,
    deepspeed="ds_config_gpt_j.json",
    save_total_limit=1,
)

model = GPTRewardModel("pvduy/openai_summarize_sft_gptj")

Trainer(model=model, args=training_args, train_dataset=train_dataset, eval_dataset=val_dataset).train()
