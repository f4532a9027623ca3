accelerate launch --config_file ds_zero3.yaml open_instruct/dpo_tune.py
