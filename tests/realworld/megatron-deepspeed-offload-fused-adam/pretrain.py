import argparse

import deepspeed
from apex.optimizers import FusedAdam as Adam

from model import build_model


def setup_model_and_optimizer(args):
    model = build_model(args)
    optimizer = Adam(model.parameters(), lr=args.lr, weight_decay=0.01)
    model, optimizer, _, lr_scheduler = deepspeed.initialize(
        model=model, optimizer=optimizer, args=args, config="ds_config.json"
    )
    return model, optimizer, lr_scheduler


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=1e-4)
    parser = deepspeed.add_config_arguments(parser)
    setup_model_and_optimizer(parser.parse_args())
