CUDA_VISIBLE_DEVICES="0" python finetune.py \
    --do_train \
    --model_name_or_path baichuan-inc/Baichuan-7B \
    --output_dir lora/baichuan-7b \
    --evaluation_strategy "no" \
    --save_strategy "epoch" \
    --load_best_model_at_end \
    --learning_rate 3e-4
