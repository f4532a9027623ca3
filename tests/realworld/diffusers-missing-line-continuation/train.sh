export MODEL_NAME="CompVis/stable-diffusion-v1-4"
export OUTPUT_DIR="path-to-save-model"

accelerate launch train_dreambooth.py \
  --pretrained_model_name_or_path=$MODEL_NAME  \
  --output_dir=$OUTPUT_DIR \
  --train_batch_size=1 \
  --learning_rate=5e-6 \
  --mixed_precision= fp16
  --max_train_steps=400
