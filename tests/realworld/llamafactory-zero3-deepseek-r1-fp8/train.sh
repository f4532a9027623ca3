FORCE_TORCHRUN=1 llamafactory-cli train deepseek_r1_lora_sft.yaml
