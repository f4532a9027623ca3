deepspeed --num_gpus 2 run_ner_crf.py --deepspeed --deepspeed_config ds_config.json --model_name_or_path bert-base-chinese
