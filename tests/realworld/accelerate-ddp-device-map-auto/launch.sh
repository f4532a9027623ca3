accelerate launch --config_file ddp.yaml train.py
