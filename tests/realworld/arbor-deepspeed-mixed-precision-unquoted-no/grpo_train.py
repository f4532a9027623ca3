from trl import GRPOConfig

args = GRPOConfig(output_dir="out")
