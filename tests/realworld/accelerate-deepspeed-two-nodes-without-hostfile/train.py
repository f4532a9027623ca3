import torch
from accelerate import Accelerator
from torch.utils.data import DataLoader
from transformers import AutoModelForCausalLM


def main():
    accelerator = Accelerator()
    model = AutoModelForCausalLM.from_pretrained("EleutherAI/pythia-1b")
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    train_loader = DataLoader(list(range(1024)), batch_size=4)
    model, optimizer, train_loader = accelerator.prepare(model, optimizer, train_loader)
    accelerator.print(len(train_loader))


if __name__ == "__main__":
    main()
