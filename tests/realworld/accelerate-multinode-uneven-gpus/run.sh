accelerate launch \
--config_file yamls/ddp.yaml \
--machine_rank ${RANK} \
--num_machines 3 \
--num_processes 8 \
--main_process_ip ${MASTER_ADDR} \
--main_process_port ${MASTER_PORT} \
train.py
