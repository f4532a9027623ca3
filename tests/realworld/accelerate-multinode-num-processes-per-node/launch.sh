accelerate launch --config_file multi_node.yaml train.py
