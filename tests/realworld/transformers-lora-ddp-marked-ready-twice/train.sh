torchrun --nproc_per_node 8 train_lora.py \
    --output_dir out \
    --gradient_checkpointing True \
    --ddp_find_unused_parameters True \
    --fp16 True
