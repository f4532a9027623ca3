#!/usr/bin/env bash
# BasicSR's scripts/dist_train.sh (reduced): ./scripts/dist_train.sh 4 options/train/EDSR/train_EDSR_Mx2.yml

GPUS=$1
CONFIG=$2
PORT=${PORT:-4321}

PYTHONPATH="$(dirname $0)/..:${PYTHONPATH}" \
python -m torch.distributed.launch --nproc_per_node=$GPUS --master_port=$PORT \
    basicsr/train.py -opt $CONFIG --launcher pytorch ${@:3}
