import argparse

from ChineseErrorCorrector.llm.train.train_lora import TrainLLM


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--train_file', type=str)
    parser.add_argument('--dev_file', type=str)
    parser.add_argument('--model_type', default='auto', type=str)
    parser.add_argument('--model_name', type=str)
    parser.add_argument('--do_train', default=True, type=bool)
    parser.add_argument('--output_dir', type=str)
    parser.add_argument('--bf16', default=True, type=bool)
    parser.add_argument('--fp16', default=False, type=bool)
    parser.add_argument('--num_train_epochs', default=5, type=int)
    parser.add_argument('--learning_rate', default=2e-5, type=float)
    parser.add_argument('--per_device_train_batch_size', default=8, type=int)
    parser.add_argument('--gradient_accumulation_steps', default=1, type=int)
    parser.add_argument('--save_strategy', default='steps', type=str)
    parser.add_argument('--eval_steps', default=1000, type=int)
    parser.add_argument('--peft_type', default='LORA', type=str)
    parser.add_argument('--lora_r', default=8, type=int)
    parser.add_argument('--lora_alpha', default=16, type=int)
    parser.add_argument("--local_rank", type=int, help="Used by dist launchers")
    args = parser.parse_args()

    if args.do_train:
        model = TrainLLM(args)
        model.train_model(train_data=args.train_file, output_dir=args.output_dir, eval_data=args.dev_file)


if __name__ == '__main__':
    main()
