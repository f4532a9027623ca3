python train_grpo.py
