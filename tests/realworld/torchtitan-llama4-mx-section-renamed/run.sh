#!/usr/bin/env bash
NGPU=8 CONFIG_FILE="./debug_model.toml" ./run_train.sh
