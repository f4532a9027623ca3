CUDA_VISIBLE_DEVICES=1 deepspeed --num_gpus=1 ./finetune_trainer.py \
    --model_name_or_path t5-small --output_dir output_dir \
    --deepspeed ds_config.json
