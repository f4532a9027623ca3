accelerate launch --config_file fsdp_config.yaml nlp_example.py
