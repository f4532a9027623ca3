accelerate launch --config_file fsdp.yaml finetune.py
