import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from transformers import AutoModelForSeq2SeqLM


def main():
    accelerator = Accelerator()
    model = AutoModelForSeq2SeqLM.from_pretrained("google/flan-t5-xxl", device_map="balanced_low_0")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    loader = DataLoader(list(range(256)), batch_size=4)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)


if __name__ == "__main__":
    main()
