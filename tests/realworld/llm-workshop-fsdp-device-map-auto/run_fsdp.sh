accelerate launch --config_file fsdp_config.yaml train.py --output_dir out
