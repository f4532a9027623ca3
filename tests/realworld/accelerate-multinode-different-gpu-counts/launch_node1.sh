accelerate launch --config_file node1.yaml train.py
