export OPENBLAS_NUM_THREADS=1
export WANDB_DISABLED=true

deepspeed src/train_bash.py \
    --stage sft \
    --model_name_or_path llama-2-13b-hf \
    --do_train \
    --dataset train_data \
    --dataset_dir train_data \
    --finetuning_type full \
    --output_dir sft_checkpoint \
    --overwrite_cache \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 4 \
    --lr_scheduler_type cosine \
    --logging_steps 100 \
    --save_steps 1000 \
    --learning_rate 1e-4 \
    --num_train_epochs 3.0 \
    --plot_loss \
    --deepspeed ds_config.json \
    --fp16
