import os
import sys

from transformers import HfArgumentParser, TrainingArguments

from internvl.train.arguments import DataTrainingArguments, ModelArguments


def main():
    parser = HfArgumentParser((ModelArguments, DataTrainingArguments, TrainingArguments))
    if len(sys.argv) == 2 and sys.argv[1].endswith('.json'):
        model_args, data_args, training_args = parser.parse_json_file(json_file=os.path.abspath(sys.argv[1]))
    else:
        model_args, data_args, training_args = parser.parse_args_into_dataclasses()


if __name__ == '__main__':
    main()
