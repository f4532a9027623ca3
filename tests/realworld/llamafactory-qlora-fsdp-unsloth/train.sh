accelerate launch --config_file fsdp_config.yaml src/train.py llama3_lora_sft_otfq.yaml
