accelerate launch --config_file default_config.yaml train.py
