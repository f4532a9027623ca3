CUDA_VISIBLE_DEVICES=0 llamafactory-cli train llama3_lora_sft.yaml
