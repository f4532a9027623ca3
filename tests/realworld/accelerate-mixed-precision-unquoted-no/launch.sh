accelerate launch --config_file config.yaml train.py
