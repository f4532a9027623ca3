accelerate launch --config_file fsdp.yaml orpo.py
