accelerate launch --config_file ddp.yaml main.py
