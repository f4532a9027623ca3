from accelerate import Accelerator
from transformers import AutoModel

accelerator = Accelerator()
model = AutoModel.from_pretrained("maidalun1020/bce-embedding-base_v1")
model = accelerator.prepare(model)
