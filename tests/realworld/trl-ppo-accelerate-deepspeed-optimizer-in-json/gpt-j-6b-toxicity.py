# TRL 0.5 examples/research_projects/toxicity/scripts/gpt-j-6b-toxicity.py, reduced to the lines that matter
# (the model path was a local fine-tuned falcon-7b in the report).
import torch
from torch.optim import Adam
from transformers import AutoTokenizer

from trl import AutoModelForCausalLMWithValueHead, PPOConfig, PPOTrainer, create_reference_model

config = PPOConfig(
    model_name="ybelkada/gpt-j-6b-sharded-bf16",
    learning_rate=(1.47e-5) * 2,
    log_with="wandb",
    ppo_epochs=100,
    mini_batch_size=4,
    batch_size=16,
    gradient_accumulation_steps=1,
)

model = AutoModelForCausalLMWithValueHead.from_pretrained(config.model_name, torch_dtype=torch.bfloat16)
ref_model = create_reference_model(model, num_shared_layers=4)
tokenizer = AutoTokenizer.from_pretrained(config.model_name)
tokenizer.pad_token = tokenizer.eos_token

# We make sure to use `Adam` optimizer on the model parameters that require gradients.
optimizer = Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=config.learning_rate)

ppo_trainer = PPOTrainer(
    config,
    model,
    ref_model=ref_model,
    tokenizer=tokenizer,
    dataset=dataset,
    data_collator=collator,
    optimizer=optimizer,
)
