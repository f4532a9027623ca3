from trl import GRPOConfig, GRPOTrainer

training_args = GRPOConfig(
    output_dir="out",
    learning_rate=5e-6,
    bf16=True,
    per_device_train_batch_size=1,
    gradient_accumulation_steps=4,
    num_generations=16,
    max_prompt_length=256,
    max_completion_length=200,
)
trainer = GRPOTrainer(model="Qwen/Qwen2.5-0.5B-Instruct", reward_funcs=[], args=training_args)
trainer.train()
