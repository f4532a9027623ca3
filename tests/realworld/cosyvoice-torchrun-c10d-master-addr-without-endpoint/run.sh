#!/bin/bash
# examples/libritts/cosyvoice/run.sh, the training stage, as run on the first of two machines.
num_gpus=1
torchrun --nnodes=2 --nproc_per_node=$num_gpus --node_rank=0 --master_addr=11.214.25.222 --master_port 9999 \
    --rdzv_id=1986 --rdzv_backend=c10d \
  cosyvoice/bin/train.py \
    --train_engine torch_ddp \
    --config conf/cosyvoice.llm.lfe.yaml \
    --train_data data/zeroshot_large/parquet_phoneme/data.list \
    --cv_data data/zeroshot_dev/parquet_phoneme/data.list \
    --model llm \
    --model_dir exp/cosyvoice/llm/torch_ddp \
    --ddp.dist_backend nccl \
    --num_workers 2 \
    --prefetch 100 \
    --pin_memory \
    --deepspeed_config ./conf/ds_stage2.json \
    --deepspeed.save_states model+optimizer
