GPUS_PER_NODE=8
torchrun --nproc_per_node $GPUS_PER_NODE --nnodes 1 --node_rank 0 --master_addr localhost --master_port 6001 \
    finetune.py \
    --model_name_or_path Qwen/Qwen-7B \
    --output_dir output_qwen \
    --bf16 True \
    --deepspeed ds_config_zero3.json
