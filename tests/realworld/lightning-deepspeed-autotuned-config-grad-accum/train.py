import pytorch_lightning as pl
import torch
from pytorch_lightning.strategies import DeepSpeedStrategy


class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = torch.nn.Linear(1024, 1024)

    def training_step(self, batch, batch_idx):
        return self.layer(batch).sum()

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=1e-4)


# ds_config.json is the configuration DeepSpeed's autotuner wrote.
trainer = pl.Trainer(
    accelerator="gpu",
    devices=8,
    strategy=DeepSpeedStrategy(config="ds_config.json"),
    precision=16,
)
trainer.fit(Model())
