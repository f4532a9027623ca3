import os
from time import strftime, localtime
import argparse

import torch
import torch.distributed as dist


def parse():
    parser = argparse.ArgumentParser()
    MODEL_DIR = 'output/'+strftime("%y%m%d-%H%M", localtime())

    parser.add_argument('--work-dir', type=str, default=MODEL_DIR, help='the dir to save logs and models')
    parser.add_argument ('--local_rank', type=int, default=0)
    args = parser.parse_args()

    if args.local_rank == 0 and not os.path.exists(MODEL_DIR): os.mkdir(MODEL_DIR)
    return args


def main():
    args = parse()
    local_rank = args.local_rank
    torch.cuda.set_device(local_rank)
    dist.init_process_group(backend='nccl', init_method='env://')


if __name__ == '__main__':
    main()
