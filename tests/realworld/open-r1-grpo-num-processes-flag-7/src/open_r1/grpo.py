from trl import GRPOConfig, GRPOTrainer, ModelConfig, TrlParser

parser = TrlParser((GRPOConfig, ModelConfig))
training_args, model_args = parser.parse_args_and_config()
