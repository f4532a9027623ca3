deepspeed trl/examples/scripts/sft_trainer.py \
  --model_name Chinese-Llama-2-7b \
  --dataset_name timdettmers/openassistant-guanaco \
  --batch_size 8 \
  --gradient_accumulation_steps 2
