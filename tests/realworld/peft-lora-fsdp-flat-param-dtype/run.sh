accelerate launch --config_file fsdp_config.yaml ./finetune/peft_lora_seq2seq_accelerate_fsdp.py
