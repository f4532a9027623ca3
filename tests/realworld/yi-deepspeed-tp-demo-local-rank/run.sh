deepspeed --num_gpus 2 demo/text_generation_tp.py --model 01-ai/Yi-6B --streaming
