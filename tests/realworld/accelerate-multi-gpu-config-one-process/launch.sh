accelerate launch --config_file default_config.yaml run_clm_no_trainer.py \
    --model_name_or_path gpt2-large \
    --dataset_name wikitext \
    --dataset_config_name wikitext-2-raw-v1 \
    --per_device_train_batch_size 8 \
    --per_device_eval_batch_size 8 \
    --num_train_epochs 1 \
    --block_size 12
