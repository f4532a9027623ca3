import argparse
import os

import deepspeed
import torch
from transformers import AutoModelForCausalLM, AutoTokenizer


def parse_inputs():
    parser = argparse.ArgumentParser(description="Yi-6B text generation demo with tensor parallelism acceleration")
    parser.add_argument("--model", type=str, default="01-ai/Yi-6B")
    parser.add_argument("--tokenizer", type=str, default="")
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--streaming", action="store_true")
    parser.add_argument("--prompt", type=str, default="Let me tell you an interesting story about cat Tom and mouse Jerry,")
    args = parser.parse_args()
    return args


def main(args):
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    model = AutoModelForCausalLM.from_pretrained(args.model, device_map="cuda", torch_dtype="auto")
    model = deepspeed.init_inference(model, mp_size=int(os.environ["WORLD_SIZE"]), replace_with_kernel_inject=False)
    tokenizer = AutoTokenizer.from_pretrained(args.tokenizer or args.model)
    inputs = tokenizer(args.prompt, return_tensors="pt")
    model.generate(inputs.input_ids.cuda(), max_new_tokens=args.max_tokens, do_sample=True)


if __name__ == "__main__":
    args = parse_inputs()
    main(args)
