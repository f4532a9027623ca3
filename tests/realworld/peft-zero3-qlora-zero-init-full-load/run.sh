accelerate launch --num_processes 8 train.py
