from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments

model_id = "ibm-granite/granite-3.0-2b-base"
model = AutoModelForCausalLM.from_pretrained(model_id)
tokenizer = AutoTokenizer.from_pretrained(model_id)
dataset = load_dataset("json", data_files="train.jsonl")["train"]

args = TrainingArguments(
    output_dir="outputs",
    per_device_train_batch_size=4,
    num_train_epochs=1,
    save_strategy="epoch",
    save_only_model=True,
    bf16=True,
)
trainer = Trainer(model=model, args=args, train_dataset=dataset, processing_class=tokenizer)
trainer.train()
