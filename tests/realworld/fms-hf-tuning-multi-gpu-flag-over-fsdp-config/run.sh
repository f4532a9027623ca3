accelerate launch --multi_gpu --num_processes 2 --config_file fsdp_config.yaml tuning/sft_trainer.py \
    --model_name_or_path meta-llama/Llama-2-7b-hf \
    --data_path twitter_complaints.json \
    --output_dir out \
    --num_train_epochs 5 \
    --per_device_train_batch_size 2 \
    --learning_rate 1e-5 \
    --torch_dtype bfloat16
