CUDA_VISIBLE_DEVICES=0,1 torchrun --nproc_per_node 2 pretraining.py \
    --model_type auto \
    --model_name_or_path Qwen/Qwen1.5-0.5B \
    --train_file_dir ./data/pretrain \
    --per_device_train_batch_size 4 \
    --do_train \
    --bf16 \
    --output_dir outputs-pt \
    --deepspeed zero2.json
