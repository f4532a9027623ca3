#!/bin/bash
CUDA_VISIBLE_DEVICES=0,1
accelerate launch src/train_bash.py \
--config_file examples/accelerate/Accelerate Config.yaml
--ddp_timeout 180000000 \
    --stage sft \
    --do_train True \
    --model_name_or_path /root/autodl-tmp/Qwen1.5-14B-Chat \
    --finetuning_type lora \
    --template qwen \
    --dataset RoadSafeGPT-sft,alpaca_zh \
    --learning_rate 5e-05 \
    --per_device_train_batch_size 2 \
    --gradient_accumulation_steps 8 \
    --output_dir saves/Qwen1.5-14B/lora/lora1.5-test \
    --bf16 True \
    --lora_target q_proj,v_proj
