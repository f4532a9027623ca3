llamafactory-cli chat llama3_lora_predict.yaml
