import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from transformers import AutoModelForSequenceClassification


def main():
    accelerator = Accelerator()
    model = AutoModelForSequenceClassification.from_pretrained("bert-base-cased")
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    train_dataloader = DataLoader(list(range(64)), batch_size=16)
    model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)


if __name__ == "__main__":
    main()
