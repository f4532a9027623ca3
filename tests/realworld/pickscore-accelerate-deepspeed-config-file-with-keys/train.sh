accelerate launch --config_file default_config.yaml --num_processes 8 --num_machines 1 trainer/scripts/train.py +experiment=clip_h output_dir=output
