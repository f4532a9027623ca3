# HF011 / HF013 evidence on the real libraries:
# (1) TrainingArguments with load_best_model_at_end and eval/save strategies or steps that do not match;
# (2) DDP (world size 2, `fake` process group) over a PEFT LoRA model with gradient checkpointing, reentrant or not,
#     and find_unused_parameters true or false: one backward.
import json, os, traceback
out = {"cases": []}

def rec(name, fn):
    r = {"name": name}
    try:
        r.update(fn() or {})
        r["raised"] = None
    except Exception as e:
        r["raised"] = f"{type(e).__name__}: {str(e)[:300]}"
        r["where"] = [f"{fr.filename.split('site-packages/')[-1]}:{fr.lineno}" for fr in traceback.extract_tb(e.__traceback__)][-2:]
    out["cases"].append(r)
    print(json.dumps(r), flush=True)

import transformers
from transformers import TrainingArguments
out["transformers"] = transformers.__version__
for name, kw in [
    ("best_epoch_vs_steps", dict(eval_strategy="epoch", save_strategy="steps")),
    ("best_steps_vs_epoch", dict(eval_strategy="steps", save_strategy="epoch")),
    ("best_no_eval", dict(eval_strategy="no", save_strategy="steps")),
    ("best_steps_not_multiple", dict(eval_strategy="steps", save_strategy="steps", eval_steps=300, save_steps=500)),
    ("best_steps_multiple", dict(eval_strategy="steps", save_strategy="steps", eval_steps=250, save_steps=500)),
    ("best_epoch_epoch", dict(eval_strategy="epoch", save_strategy="epoch")),
    ("best_steps_default_eval_steps", dict(eval_strategy="steps", save_strategy="steps", save_steps=500)),
]:
    rec(name, lambda kw=kw: (TrainingArguments(output_dir="/tmp/o", report_to=[], load_best_model_at_end=True, **kw), {})[1])

import torch, torch.distributed as dist
from torch.testing._internal.distributed.fake_pg import FakeStore
dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=2)
from peft import LoraConfig, get_peft_model
from transformers import LlamaConfig, LlamaForCausalLM
from torch.nn.parallel import DistributedDataParallel as DDP

def ddp_case(reentrant, unused):
    def run():
        cfg = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4, vocab_size=128)
        m = LlamaForCausalLM(cfg).cuda()
        m.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": reentrant})
        m.enable_input_require_grads()
        m = get_peft_model(m, LoraConfig(r=4, target_modules=["q_proj", "v_proj"]))
        d = DDP(m, device_ids=[0], find_unused_parameters=unused)
        def hook(state, bucket):
            f = torch.futures.Future(); f.set_result(bucket.buffer()); return f
        d.register_comm_hook(None, hook)
        ids = torch.randint(0, 128, (1, 16), device="cuda")
        d(input_ids=ids, labels=ids).loss.backward()
        return {"step": "ok"}
    return run
for reentrant in (True, False):
    for unused in (True, False):
        rec(f"ddp_lora_gc_reentrant{int(reentrant)}_unused{int(unused)}", ddp_case(reentrant, unused))
try:
    import trl
    out["trl"] = trl.__version__
except Exception as e:
    out["trl"] = f"not importable: {e}"
print("trl", out["trl"])
open(os.path.join(os.environ.get("OUT", "/tmp"), "trainer_consistency.result.json"), "w").write(json.dumps(out, indent=1))
