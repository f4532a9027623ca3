CUDA_VISIBLE_DEVICES=0 python finetune.py --train_data train.json
