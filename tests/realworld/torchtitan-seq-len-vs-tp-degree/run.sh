CONFIG_FILE="./debug_model.toml" NGPU=4 ./run_train.sh
