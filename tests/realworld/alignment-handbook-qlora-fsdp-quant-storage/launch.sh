ACCELERATE_LOG_LEVEL=info accelerate launch --config_file fsdp_qlora.yaml scripts/run_sft.py config_qlora.yaml
