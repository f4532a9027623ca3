accelerate launch -m axolotl.cli.train lora-fsdp.yml
