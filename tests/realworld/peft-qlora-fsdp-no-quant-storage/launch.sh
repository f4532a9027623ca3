accelerate launch --config_file fsdp.yaml sft.py --output_dir out
