accelerate launch --config_file zero3.yaml sft.py
