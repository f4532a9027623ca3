accelerate launch --config_file zero2_multi_node.yaml \
    --num_processes=7 src/grpo.py \
    --config grpo.yaml
