from dataclasses import dataclass, field

from transformers import HfArgumentParser, TrainingArguments


@dataclass
class ModelArguments:
    model_name_or_path: str = field(default="")
    use_peft_lora: bool = field(default=False)
    use_4bit_quantization: bool = field(default=False)
    use_8bit_quantization: bool = field(default=False)
    bnb_4bit_quant_storage_dtype: str = field(default="uint8")


parser = HfArgumentParser((ModelArguments, TrainingArguments))
model_args, training_args = parser.parse_args_into_dataclasses()
