accelerate launch --config_file deepspeed_config.yaml trainer.py
