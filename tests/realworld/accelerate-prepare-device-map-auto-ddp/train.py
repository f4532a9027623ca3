import torch
from accelerate import Accelerator
from transformers import LlamaForCausalLM, LlamaTokenizer

MODEL_PATH = "meta-llama/Llama-2-7b-hf"

accelerator = Accelerator()
tokenizer = LlamaTokenizer.from_pretrained(MODEL_PATH)
model = LlamaForCausalLM.from_pretrained(MODEL_PATH, device_map="auto")
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
train_dataloader = torch.utils.data.DataLoader(train_dataset, batch_size=1)

model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)
