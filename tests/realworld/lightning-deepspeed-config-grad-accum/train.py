import lightning as L
import torch
from lightning.pytorch.strategies import DeepSpeedStrategy


class Model(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(512, 512)

    def training_step(self, batch, batch_idx):
        return self.layer(batch).sum()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


trainer = L.Trainer(
    accelerator="gpu",
    devices=8,
    strategy=DeepSpeedStrategy(config="ds_config.json"),
    accumulate_grad_batches=2,
    precision="bf16-mixed",
)
trainer.fit(Model())
