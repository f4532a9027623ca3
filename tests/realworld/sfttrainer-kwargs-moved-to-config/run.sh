python finetune.py
