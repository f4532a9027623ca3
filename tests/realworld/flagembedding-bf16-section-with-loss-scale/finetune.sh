#!/usr/bin/env bash
num_gpus=2
torchrun --nproc_per_node $num_gpus \
    -m FlagEmbedding.finetune.embedder.encoder_only.base \
    --model_name_or_path BAAI/bge-m3 \
    --train_data ./example_data/retrieval \
    --output_dir ./test_encoder_only_base_bge-m3 \
    --deepspeed ds_stage1.json \
    --bf16 \
    --per_device_train_batch_size 2
