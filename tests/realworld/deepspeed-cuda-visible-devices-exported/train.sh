#!/bin/bash
export CUDA_VISIBLE_DEVICES=2,3
deepspeed --num_gpus 2 train.py --deepspeed ds_config.json --output_dir out
