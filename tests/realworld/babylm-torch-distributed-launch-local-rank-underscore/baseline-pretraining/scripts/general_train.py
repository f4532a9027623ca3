import argparse


def get_parser():
    parser = argparse.ArgumentParser(description="BabyLM baseline pretraining")
    parser.add_argument("--setting", default=None, type=str, action="store")
    parser.add_argument("--local_rank", type=int, default=0)
    parser.add_argument("--train_upto_epoch", default=None, type=int, action="store")
    parser.add_argument("--exp_id", default=None, type=str, action="store")
    parser.add_argument("--opt_model_size", default=None, type=str, action="store")
    return parser


def main():
    parser = get_parser()
    args = parser.parse_args()


if __name__ == "__main__":
    main()
