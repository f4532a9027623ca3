accelerate launch --config_file fsdp.yaml train_qlora.py
