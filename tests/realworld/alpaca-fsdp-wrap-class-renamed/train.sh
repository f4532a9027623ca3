torchrun --nproc_per_node=4 --master_port=29500 train.py \
    --model_name_or_path huggyllama/llama-7b \
    --output_dir ./out \
    --bf16 True \
    --fsdp "full_shard auto_wrap" \
    --fsdp_transformer_layer_cls_to_wrap 'LLaMADecoderLayer'
