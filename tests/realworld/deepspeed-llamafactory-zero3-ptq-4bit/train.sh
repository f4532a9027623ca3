FORCE_TORCHRUN=1 NPROC_PER_NODE=4 llamafactory-cli train deepseek_lora_sft.yaml
