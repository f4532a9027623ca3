import argparse

from accelerate import Accelerator


class Trainer:
    def __init__(self, model, opt_ae, opt_disc, lr_scheduler_ae, lr_scheduler_disc, data_loader):
        self.accelerator = Accelerator(split_batches=True, mixed_precision="fp16")
        self.model, self.opt_ae, self.opt_disc, self.lr_scheduler_ae, self.lr_scheduler_disc = \
            self.accelerator.prepare(model, opt_ae, opt_disc, lr_scheduler_ae, lr_scheduler_disc)
        self.dl = data_loader


def main(args):
    trainer = Trainer(*build(args))
    trainer.train()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cfg", type=str)
    main(parser.parse_args())
