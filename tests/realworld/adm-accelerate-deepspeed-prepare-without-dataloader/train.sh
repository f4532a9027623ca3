accelerate launch --config_file default_config.yaml train_vae.py --cfg configs/first_stage_d4.yaml
