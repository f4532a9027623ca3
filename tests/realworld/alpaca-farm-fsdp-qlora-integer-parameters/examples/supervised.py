import torch
import transformers
from peft import LoraConfig, get_peft_model
from transformers import BitsAndBytesConfig


def main():
    parser = transformers.HfArgumentParser((ModelArguments, DataArguments, TrainingArguments))
    model_args, data_args, training_args = parser.parse_args_into_dataclasses()
    bnb_config = BitsAndBytesConfig(
        load_in_4bit=True,
        bnb_4bit_use_double_quant=True,
        bnb_4bit_quant_type="nf4",
        bnb_4bit_compute_dtype=torch.bfloat16,
    )
    model = transformers.AutoModelForCausalLM.from_pretrained(
        model_args.model_name_or_path,
        quantization_config=bnb_config,
    )
    peft_config = LoraConfig(lora_alpha=16, lora_dropout=0.1, r=64, target_modules=["q_proj", "v_proj"], bias="none", task_type="CAUSAL_LM")
    model = get_peft_model(model, peft_config)
    trainer = transformers.Trainer(model=model, args=training_args)
    trainer.train()


if __name__ == "__main__":
    main()
