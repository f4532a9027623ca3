accelerate launch --config_file "fsdp_config_qlora.yaml" train.py \
--model_name_or_path "meta-llama/Llama-3.1-8B-Instruct" \
--output_dir "llama-sft-qlora-fsdp" \
--bf16 True \
--use_peft_lora True \
--use_4bit_quantization True \
--use_8bit_quantization True \
--bnb_4bit_quant_storage_dtype "bfloat16"
