accelerate launch --config_file ds_zero3.yaml train_lora_int8.py
