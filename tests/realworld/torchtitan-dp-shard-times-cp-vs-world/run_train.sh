#!/usr/bin/bash
set -ex
NGPU=${NGPU:-"8"}
CONFIG_FILE=${CONFIG_FILE:-"./torchtitan/models/llama3/train_configs/debug_model.toml"}
torchrun --nproc_per_node=${NGPU} --rdzv_backend c10d --rdzv_endpoint="localhost:0" \
--local-ranks-filter 0 --role rank --tee 3 \
-m torchtitan.train --job.config_file ${CONFIG_FILE} "$@"
