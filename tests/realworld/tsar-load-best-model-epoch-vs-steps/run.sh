python run.py --model_name_or_path roberta-base --output_dir out --do_train --do_eval \
    --evaluation_strategy epoch --load_best_model_at_end True --metric_for_best_model f1
