from transformers import AutoTokenizer, TrainingArguments
from trl import SFTTrainer

tokenizer = AutoTokenizer.from_pretrained("meta-llama/Meta-Llama-3-8B")
training_arguments = TrainingArguments(output_dir="out", per_device_train_batch_size=4)
trainer = SFTTrainer(
    model="meta-llama/Meta-Llama-3-8B",
    train_dataset=None,
    dataset_text_field="text",
    tokenizer=tokenizer,
    args=training_arguments,
    max_seq_length=512,
)
