deepspeed --num_gpus=2 train.py --train_args_file train_args/sft.json
