from transformers import AutoModelForSequenceClassification, Trainer, TrainingArguments

model = AutoModelForSequenceClassification.from_pretrained("google-bert/bert-base-cased", device_map="auto")
args = TrainingArguments(output_dir="out", per_device_train_batch_size=8)
Trainer(model=model, args=args).train()
