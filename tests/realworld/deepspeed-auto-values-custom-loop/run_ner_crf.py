import argparse

import deepspeed
from transformers import BertModel


def train(args, model, train_dataset):
    model, optimizer, _, _ = deepspeed.initialize(args=args, model=model, model_parameters=model.parameters())
    for batch in train_dataset:
        loss = model(**batch).loss
        model.backward(loss)
        model.step()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_name_or_path", type=str)
    parser.add_argument("--local_rank", type=int, default=-1)
    parser = deepspeed.add_config_arguments(parser)
    args = parser.parse_args()
    model = BertModel.from_pretrained(args.model_name_or_path)
    train(args, model, [])


if __name__ == "__main__":
    main()
