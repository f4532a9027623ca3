ACCELERATE_LOG_LEVEL=info accelerate launch --config_file zero3.yaml --num_processes=7 src/open_r1/grpo.py --config config_full.yaml
