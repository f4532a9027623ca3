#!/bin/bash
accelerate launch --config_file fsdp_config.yaml train.py
