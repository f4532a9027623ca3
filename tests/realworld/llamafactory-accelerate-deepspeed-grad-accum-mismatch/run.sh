accelerate launch --config_file ./ds.yml src/train_sft.py \
    --model_name_or_path baichuan-inc/Baichuan-13B-Base \
    --do_train \
    --output_dir out/train_2023 \
    --per_device_train_batch_size 4 \
    --gradient_accumulation_steps 2 \
    --max_grad_norm 0.5 \
    --learning_rate 5e-5
