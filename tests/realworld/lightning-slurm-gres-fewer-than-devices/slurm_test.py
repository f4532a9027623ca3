import pytorch_lightning as pl

trainer = pl.Trainer(accelerator="gpu", devices=2, num_nodes=1, strategy="ddp")
