from trl import GRPOConfig, TrlParser

parser = TrlParser((GRPOConfig,))
