torchrun --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint "$MASTER_ADDR:29500" \
    -m torchtitan.train --job.config_file ./llama3_8b.toml
