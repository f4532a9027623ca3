from pytorch_lightning import Trainer
from pytorch_lightning.demos.boring_classes import BoringDataModule, BoringModel

trainer = Trainer(max_epochs=100)
trainer.fit(BoringModel(), BoringDataModule())
