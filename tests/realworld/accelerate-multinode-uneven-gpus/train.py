from accelerate import Accelerator

accelerator = Accelerator()
model, optimizer, loader = accelerator.prepare(*build())
