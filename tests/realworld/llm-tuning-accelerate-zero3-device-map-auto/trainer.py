from accelerate import Accelerator
from accelerate.utils import DummyOptim, DummyScheduler

from model import LlamaLoraModel
from config import Config


class Trainer:
    def __init__(self):
        self.accelerator = Accelerator()
        # the model is built (and loaded with from_pretrained) in model.py
        self.model = LlamaLoraModel()
        self.optimizer = DummyOptim(self.model.parameters(), lr=Config.learning_rate)
        self.scheduler = DummyScheduler(self.optimizer)
        self.model, self.optimizer, self.train_data_loader, self.scheduler = self.accelerator.prepare(
            self.model, self.optimizer, self.get_data_loader(), self.scheduler
        )


if __name__ == "__main__":
    Trainer()
