# docs/TRAINING.md before the fix (XMem 7948d15)
python -m torch.distributed.launch --master_port 25763 --nproc_per_node=2 train.py --exp_id retrain --stage 03
