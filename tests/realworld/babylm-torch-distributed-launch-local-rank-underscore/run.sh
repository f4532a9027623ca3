python -m torch.distributed.launch --nproc_per_node=1 --master_port=29123 baseline-pretraining/scripts/general_train.py --setting "BabyLM/exp_strict.py:opt125m_s1"
