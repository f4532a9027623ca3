#!/usr/bin/env bash
# One node, 8 GPUs.
accelerate launch --config_file fsdp.yaml train.py
