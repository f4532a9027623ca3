import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification


def main():
    accelerator = Accelerator(gradient_accumulation_steps=1)
    accelerator.print(accelerator.num_processes)
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    loader = DataLoader(list(range(4096)), batch_size=8)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)


if __name__ == "__main__":
    main()
