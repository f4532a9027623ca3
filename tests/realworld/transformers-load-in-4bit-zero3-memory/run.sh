accelerate launch --config_file ds_zero3.yaml test.py
