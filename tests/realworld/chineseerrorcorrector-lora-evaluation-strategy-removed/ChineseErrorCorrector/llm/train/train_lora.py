# -*- coding: utf-8 -*-
from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments


class TrainLLM:
    def __init__(self, args):
        self.args = args
        self.model = AutoModelForCausalLM.from_pretrained(args.model_name)
        self.tokenizer = AutoTokenizer.from_pretrained(args.model_name)

    def train_model(self, train_data, output_dir, eval_data=None):
        # Setup train args
        training_args = TrainingArguments(
            output_dir=output_dir,
            learning_rate=self.args.learning_rate,
            num_train_epochs=self.args.num_train_epochs,
            per_device_train_batch_size=self.args.per_device_train_batch_size,
            gradient_accumulation_steps=self.args.gradient_accumulation_steps,
            save_strategy=self.args.save_strategy,
            evaluation_strategy='steps' if eval_data is not None else 'no',
            eval_steps=self.args.eval_steps if eval_data is not None else None,
            load_best_model_at_end=True if eval_data is not None else False,
            fp16=self.args.fp16,
            bf16=self.args.bf16,
        )
        trainer = Trainer(model=self.model, args=training_args)
        trainer.train()
