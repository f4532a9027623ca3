deepspeed --hostfile hostfile --include=work1:2,3 nvidia_run_squad_deepspeed.py \
  --deepspeed --deepspeed_config ds_config.json \
  --do_train --train_file train-v1.1.json --output_dir out
