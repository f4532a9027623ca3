#!/bin/bash
MASTER_PORT=4637
MODEL_DIR="mistralai/Mistral-7B-v0.1"
run_name="train_mix.check_ChatGPT.clean"
output_dir="../../outputs/${MODEL_DIR}/${run_name}"
train_data_path="../../data/train_mix.check_ChatGPT.clean.format_v2.json"

CUDA_VISIBLE_DEVICES="0,1,2,3" deepspeed \
    --num_gpus 4 \
    --num_nodes 1 \
    --master_port ${MASTER_PORT} \
    train.py \
    --model_name_or_path ${MODEL_DIR} \
    --train_data_path ${train_data_path} \
    --bf16 True \
    --output_dir ${output_dir} \
    --num_train_epochs 3 \
    --per_device_train_batch_size 1 \
    --gradient_accumulation_steps 32 \
    --model_max_length 1024 \
    --save_strategy "epoch" \
    --learning_rate 2e-5 \
    --deepspeed ds_llama_config.json \
    --run_name ${run_name} \
    --seed 42 \
    --is_lora True
