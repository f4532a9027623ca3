CONFIG_FILE="./llama3_8b.toml" NGPU=8 ./run_train.sh
