deepspeed --num_gpus=2 fine-tune.py google/flan-t5-xxl
