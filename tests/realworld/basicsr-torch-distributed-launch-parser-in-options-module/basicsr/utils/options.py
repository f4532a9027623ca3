import argparse
import random
import torch
import yaml

from basicsr.utils.dist_util import get_dist_info, init_dist, master_only


def yaml_load(f):
    with open(f, 'r') as f:
        return yaml.load(f, Loader=yaml.SafeLoader)


def dict2str(opt, indent_level=1):
    return '\n'.join(f'{" " * (indent_level * 2)}{k}: {v}' for k, v in opt.items())


def parse_options(root_path, is_train=True):
    parser = argparse.ArgumentParser()
    parser.add_argument('-opt', type=str, required=True, help='Path to option YAML file.')
    parser.add_argument('--launcher', choices=['none', 'pytorch', 'slurm'], default='none', help='job launcher')
    parser.add_argument('--auto_resume', action='store_true')
    parser.add_argument('--debug', action='store_true')
    parser.add_argument('--local_rank', type=int, default=0)
    parser.add_argument(
        '--force_yml', nargs='+', default=None, help='Force to update yml files. Examples: train:ema_decay=0.999')
    args = parser.parse_args()

    # parse yml to dict
    opt = yaml_load(args.opt)

    # distributed settings
    if args.launcher == 'none':
        opt['dist'] = False
        print('Disable distributed.', flush=True)
    else:
        opt['dist'] = True
        init_dist(args.launcher)
    opt['rank'], opt['world_size'] = get_dist_info()

    seed = opt.get('manual_seed')
    if seed is None:
        seed = random.randint(1, 10000)
        opt['manual_seed'] = seed
    opt['is_train'] = is_train
    return opt, args


@master_only
def copy_opt_file(opt_file, experiments_root):
    import shutil
    shutil.copy(opt_file, experiments_root)
