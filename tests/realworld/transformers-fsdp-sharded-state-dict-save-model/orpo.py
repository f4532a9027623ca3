from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer
from trl import ORPOConfig, ORPOTrainer

args = ORPOConfig(output_dir="orpo-out", per_device_train_batch_size=2, gradient_accumulation_steps=4, bf16=True)
model = AutoModelForCausalLM.from_pretrained("Qwen/Qwen2.5-7B-Instruct")
tokenizer = AutoTokenizer.from_pretrained("Qwen/Qwen2.5-7B-Instruct")
dataset = load_dataset("trl-lib/ultrafeedback_binarized")
trainer = ORPOTrainer(model=model, args=args, train_dataset=dataset["train"], processing_class=tokenizer)
trainer.train()
trainer.save_model(args.output_dir)
