#!/bin/bash
deepspeed --num_gpus 8 pretrain/train.py \
    --model_name_or_path huggyllama/llama-13b \
    --data_path data/pretrain.json \
    --output_dir output \
    --fp16 \
    --deepspeed configs/config.json
