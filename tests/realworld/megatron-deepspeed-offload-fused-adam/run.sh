#!/bin/bash
deepspeed --num_gpus 8 pretrain.py --lr 1e-4
