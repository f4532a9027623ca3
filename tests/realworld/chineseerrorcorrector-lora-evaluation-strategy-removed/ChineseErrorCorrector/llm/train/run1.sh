#!/bin/bash
SCRIPT_DIR=$(dirname "$(realpath "$0")")
BASE_PATH=$(dirname "$SCRIPT_DIR")/..
TRAIN_FILE="${BASE_PATH}/data/paper_data/train_stage1.json"
DEV_FILE="${BASE_PATH}/data/paper_data/test_nacgec.json"
MODEL_NAME="${BASE_PATH}/pre_model/Qwen2.5-7B-Instruct"
OUTPUT_DIR="${BASE_PATH}/data/paper_data/model_output_stage1"

python ${BASE_PATH}/llm/train/run.py \
    --train_file $TRAIN_FILE \
    --dev_file $DEV_FILE \
    --model_type auto \
    --model_name $MODEL_NAME \
    --do_train True \
    --output_dir $OUTPUT_DIR \
    --bf16 True \
    --num_train_epochs 5 \
    --learning_rate 5e-5 \
    --per_device_train_batch_size 32 \
    --gradient_accumulation_steps 2 \
    --save_strategy steps \
    --eval_steps 100000 \
    --peft_type LORA \
    --lora_r 8 \
    --lora_alpha 16
