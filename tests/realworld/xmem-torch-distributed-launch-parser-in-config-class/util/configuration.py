from argparse import ArgumentParser


class Configuration():
    def parse(self, unknown_arg_ok=False):
        parser = ArgumentParser()

        # Enable torch.backends.cudnn.benchmark -- Faster in some cases, test in your own environment
        parser.add_argument('--benchmark', action='store_true')
        parser.add_argument('--no_amp', action='store_true')

        # Data parameters
        parser.add_argument('--static_root', default='../static')
        parser.add_argument('--num_workers', type=int, default=16)

        # Stages
        parser.add_argument('--stages', default='02')
        parser.add_argument('--s0_batch_size', default=16, type=int)
        parser.add_argument('--s0_lr', default=1e-5, type=float)
        parser.add_argument('--s3_batch_size', default=8, type=int)
        parser.add_argument('--s3_lr', default=1e-5, type=float)

        # Logging information
        parser.add_argument('--exp_id', default='NULL')
        parser.add_argument('--debug', action='store_true')

        # # Multiprocessing parameters, not set by users
        # parser.add_argument('--local_rank', default=0, type=int, help='Local rank of this process')

        if unknown_arg_ok:
            args, _ = parser.parse_known_args()
            self.args = vars(args)
        else:
            self.args = vars(parser.parse_args())

    def __getitem__(self, key):
        return self.args[key]
