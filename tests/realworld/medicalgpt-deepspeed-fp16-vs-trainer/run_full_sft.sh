CUDA_VISIBLE_DEVICES=1,2 torchrun --nproc_per_node 2 supervised_finetuning.py \
    --model_name_or_path THUDM/chatglm2-6b \
    --do_train \
    --per_device_train_batch_size 2 \
    --output_dir outputs-sft-v1 \
    --bf16 \
    --deepspeed zero2.json
