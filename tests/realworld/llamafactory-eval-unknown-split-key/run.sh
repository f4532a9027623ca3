llamafactory-cli eval lora_eval.yaml
