export CUDA_VISIBLE_DEVICES=4,5,6,7
echo $CUDA_VISIBLE_DEVICES
deepspeed --num_gpus 4 src/train_bash.py \
    --deepspeed ds_config1.json \
    --stage sft \
    --do_train \
    --model_name_or_path models/llama7b \
    --dataset train_mix \
    --template default \
    --finetuning_type lora \
    --lora_target q_proj,v_proj \
    --output_dir sft/codellama70b_test \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 1 \
    --lr_scheduler_type cosine \
    --learning_rate 5e-5 \
    --num_train_epochs 2 \
    --fp16
