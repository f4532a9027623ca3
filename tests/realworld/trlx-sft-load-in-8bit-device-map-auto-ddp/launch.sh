accelerate launch --multi_gpu --num_processes 8 train_gptj_summarize.py
