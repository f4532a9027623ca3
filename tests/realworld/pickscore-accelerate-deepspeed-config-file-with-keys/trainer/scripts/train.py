import hydra
from accelerate import Accelerator


@hydra.main(config_path="../conf", config_name="config")
def main(cfg):
    accelerator = Accelerator(gradient_accumulation_steps=1)
    model, optimizer, loader = build(cfg)
    model, optimizer, loader = accelerator.prepare(model, optimizer, loader)


if __name__ == "__main__":
    main()
