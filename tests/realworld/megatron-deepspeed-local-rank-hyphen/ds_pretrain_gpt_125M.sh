deepspeed --num_gpus 8 pretrain_gpt.py --num-layers 12 --hidden-size 768
