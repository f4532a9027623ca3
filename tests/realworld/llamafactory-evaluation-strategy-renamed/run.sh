CUDA_VISIBLE_DEVICES=0 llamafactory-cli train sft_with_eval.yaml
