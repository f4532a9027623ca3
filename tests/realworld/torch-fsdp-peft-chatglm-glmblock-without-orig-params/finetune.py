import functools
import os

import torch
import torch.distributed as dist
from peft import LoraConfig, TaskType, get_peft_model
from torch.distributed.fsdp import FullyShardedDataParallel
from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
from transformers import AutoConfig

from modeling_chatglm import ChatGLMForConditionalGeneration, GLMBlock

BASE_DIR = "THUDM/chatglm-6b"


def main():
    dist.init_process_group("nccl")
    rank = int(os.environ["LOCAL_RANK"])
    config = AutoConfig.from_pretrained(BASE_DIR, trust_remote_code=True)
    model = ChatGLMForConditionalGeneration.from_pretrained(pretrained_model_name_or_path=BASE_DIR, config=config)

    peft_config = LoraConfig(task_type=TaskType.CAUSAL_LM, inference_mode=False, r=12, lora_alpha=32, lora_dropout=0.1)
    model = get_peft_model(model, peft_config=peft_config)

    torch.cuda.set_device(rank)
    glm_auto_wrap_policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={GLMBlock})
    model = FullyShardedDataParallel(model, auto_wrap_policy=glm_auto_wrap_policy, device_id=torch.cuda.current_device())


if __name__ == "__main__":
    main()
