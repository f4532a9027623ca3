accelerate launch --config_file node0.yaml train.py
