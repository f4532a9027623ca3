accelerate launch --config_file accelerate_config.yaml train.py
