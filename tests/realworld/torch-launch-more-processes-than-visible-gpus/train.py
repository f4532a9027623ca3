import argparse

import torch
import torch.distributed as dist

parser = argparse.ArgumentParser()
parser.add_argument("-c", "--config", default=None)
parser.add_argument("--local_rank", "--local-rank", type=int, default=0)
parser.add_argument("--local_world_size", type=int, default=1)
args = parser.parse_args()

torch.cuda.set_device(args.local_rank)
dist.init_process_group(backend="nccl")
