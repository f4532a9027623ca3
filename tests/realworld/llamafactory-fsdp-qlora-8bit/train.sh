CUDA_VISIBLE_DEVICES=0,1 accelerate launch --config_file examples/fsdp_config.yaml src/train.py llama3_lora_sft_otfq.yaml
