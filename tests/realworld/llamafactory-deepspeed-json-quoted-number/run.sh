accelerate launch --config_file ./accelerate_config.yaml train_bash.py \
    --stage sft \
    --do_train \
    --output_dir /baichuan13B_sft/ \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 8 \
    --learning_rate 5e-5 \
    --fp16 \
    --deepspeed ds_config.json
