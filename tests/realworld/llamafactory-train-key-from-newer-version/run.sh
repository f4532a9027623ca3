llamafactory-cli train qwen2_lora_sft.yaml
