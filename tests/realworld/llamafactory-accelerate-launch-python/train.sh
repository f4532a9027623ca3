export CUDA_VISIBLE_DEVICES=0,1
accelerate launch python src/train_bash.py --config default_config.yaml\
    --stage sft \
    --do_train True \
    --model_name_or_path Qwen/Qwen1.5-7B-Chat \
    --finetuning_type lora \
    --template qwen \
    --dataset_dir data \
    --dataset CAIL_small \
    --cutoff_len 8192 \
    --learning_rate 5e-05 \
    --num_train_epochs 3.0 \
    --per_device_train_batch_size 2 \
    --gradient_accumulation_steps 8 \
    --output_dir saves/Qwen1.5-7B-Chat/lora/train \
    --bf16 True \
    --lora_rank 8 \
    --lora_target q_proj,v_proj
