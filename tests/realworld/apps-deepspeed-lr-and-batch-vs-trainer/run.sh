USE_TF=NO deepspeed tune_apps_gpt.py \
  --grad-acc-steps=8 \
  --fp16 \
  --deepspeed deepspeed_config.json \
  --batch-size-per-replica=2
