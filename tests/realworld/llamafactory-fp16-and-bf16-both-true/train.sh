FORCE_TORCHRUN=1 NPROC_PER_NODE=4 llamafactory-cli train qwen3vl_lora_sft.yaml
