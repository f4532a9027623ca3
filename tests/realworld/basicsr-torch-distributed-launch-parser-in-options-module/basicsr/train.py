import datetime
import logging
import math
import time
import torch
from os import path as osp

from basicsr.data import build_dataloader, build_dataset
from basicsr.models import build_model
from basicsr.utils import get_root_logger, get_time_str, make_exp_dirs
from basicsr.utils.options import copy_opt_file, dict2str, parse_options


def train_pipeline(root_path):
    # parse options, set distributed setting, set random seed
    opt, args = parse_options(root_path, is_train=True)
    opt['root_path'] = root_path

    torch.backends.cudnn.benchmark = True

    make_exp_dirs(opt)
    copy_opt_file(args.opt, opt['path']['experiments_root'])
    logger = get_root_logger(logger_name='basicsr', log_level=logging.INFO)
    logger.info(dict2str(opt))

    model = build_model(opt)
    for epoch in range(opt['train']['total_epochs']):
        model.optimize_parameters(epoch)


if __name__ == '__main__':
    root_path = osp.abspath(osp.join(__file__, osp.pardir, osp.pardir))
    train_pipeline(root_path)
