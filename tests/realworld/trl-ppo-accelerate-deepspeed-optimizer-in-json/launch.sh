accelerate launch --config_file default_config.yaml gpt-j-6b-toxicity.py
