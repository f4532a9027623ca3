accelerate launch --config_file zero2.yaml grpo_train.py
