#!/bin/bash
model=$1
data=$2
accelerate launch --num_processes 8 --num_machines 2 --machine_rank 0 --mixed_precision 'no' --gpu_ids '0,1,2,3' --same_network 'true' --main_process_ip '206.12.124.2' --main_process_port 63333  --rdzv_backend 'static' mainScript.py $model $data Evaluation_FullFineTuning.tsv
