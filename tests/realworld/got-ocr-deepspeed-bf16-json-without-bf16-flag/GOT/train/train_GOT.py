import transformers

from GOT.utils.arguments import DataArguments, ModelArguments, TrainingArguments


def train():
    parser = transformers.HfArgumentParser((ModelArguments, DataArguments, TrainingArguments))
    model_args, data_args, training_args = parser.parse_args_into_dataclasses()
    model = transformers.AutoModelForCausalLM.from_pretrained(model_args.model_name_or_path, use_safetensors=True)
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()
    trainer.save_state()


if __name__ == "__main__":
    train()
