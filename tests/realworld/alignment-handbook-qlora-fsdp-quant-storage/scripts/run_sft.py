from trl import ModelConfig, SFTConfig, TrlParser, get_quantization_config

parser = TrlParser((ModelConfig, SFTConfig))
model_args, training_args = parser.parse_args_and_config()
quantization_config = get_quantization_config(model_args)
