llamafactory-cli train examples/train_full/codellama_sft_dpo.yaml
