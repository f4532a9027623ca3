#!/usr/bin/env bash
# The report's command: the script run by itself (one process).
python train_reward_model_gptj.py
