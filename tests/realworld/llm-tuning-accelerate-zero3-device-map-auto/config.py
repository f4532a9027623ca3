class Config:
    batch_size = 8
    learning_rate = 3e-4
    lora_r = 8
    lora_alpha = 16
    lora_dropout = 0.05
    lora_target_modules = ["q_proj", "v_proj"]
    base_model = "decapoda-research/llama-7b-hf"
