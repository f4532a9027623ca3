accelerate launch --multi_gpu --num_processes=2 train.py
