from llmtuner import get_train_args, run_sft


def main():
    model_args, data_args, training_args, finetuning_args = get_train_args(stage="sft")
    run_sft(model_args, data_args, training_args, finetuning_args)


if __name__ == "__main__":
    main()
