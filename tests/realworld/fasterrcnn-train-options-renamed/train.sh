python train.py --config data_configs/wheat_2020.yaml --project-name fasterrcnn_mobilenetv3_large_fpn_noaug_40e
