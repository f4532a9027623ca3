from peft import LoraConfig, TaskType, get_peft_model
from transformers import MixtralForSequenceClassification, Trainer, TrainingArguments

model = MixtralForSequenceClassification.from_pretrained("mistralai/Mixtral-8x7B-v0.1", device_map="auto")
model = get_peft_model(model, LoraConfig(task_type=TaskType.SEQ_CLS, r=8))
args = TrainingArguments(output_dir="out", per_device_train_batch_size=1, fp16=True)
Trainer(model=model, args=args).train()
