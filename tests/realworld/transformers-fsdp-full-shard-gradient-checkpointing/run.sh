torchrun --nproc_per_node 8 train.py \
    --model_name_or_path meta-llama/Llama-2-7b-hf \
    --data_path alpaca_data.json \
    --output_dir out \
    --bf16 True \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 1 \
    --fsdp "full_shard auto_wrap" \
    --fsdp_config fsdp_config.json \
    --gradient_checkpointing True
