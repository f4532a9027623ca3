# Does the HF Trainer reject save_only_model=True under FSDP, and which state_dict_type does its FSDP plugin get,
# through TrainingArguments(fsdp=..., fsdp_config=...) and through the environment `accelerate launch` sets?
# Each case runs in a fresh process (accelerate's state is a singleton); one process, world size 1.
import json, os, subprocess, sys

CASES = [
    {"name": "trainer_default", "fsdp": "full_shard auto_wrap", "fsdp_config": {}},
    {"name": "trainer_v2_full", "fsdp": "full_shard auto_wrap", "fsdp_config": {"version": 2, "state_dict_type": "FULL_STATE_DICT"}},
    {"name": "trainer_v2_fsdp_prefixed_full", "fsdp": "full_shard auto_wrap", "fsdp_config": {"version": 2, "fsdp_state_dict_type": "FULL_STATE_DICT"}},
    {"name": "trainer_v1", "fsdp": "full_shard auto_wrap", "fsdp_config": {"version": 1}},
    {"name": "trainer_v1_sharded", "fsdp": "full_shard auto_wrap", "fsdp_config": {"version": 1, "state_dict_type": "SHARDED_STATE_DICT"}},
    {"name": "env_v1_sharded", "env": {"ACCELERATE_USE_FSDP": "true", "FSDP_VERSION": "1", "FSDP_STATE_DICT_TYPE": "SHARDED_STATE_DICT"}},
    {"name": "env_v1_full", "env": {"ACCELERATE_USE_FSDP": "true", "FSDP_VERSION": "1", "FSDP_STATE_DICT_TYPE": "FULL_STATE_DICT"}},
    {"name": "env_v1_unset", "env": {"ACCELERATE_USE_FSDP": "true", "FSDP_VERSION": "1"}},
    {"name": "env_v2_unset", "env": {"ACCELERATE_USE_FSDP": "true", "FSDP_VERSION": "2"}},
    {"name": "env_v2_full", "env": {"ACCELERATE_USE_FSDP": "true", "FSDP_VERSION": "2", "FSDP_STATE_DICT_TYPE": "FULL_STATE_DICT"}},
    {"name": "trainer_default_no_save_only", "fsdp": "full_shard auto_wrap", "fsdp_config": {}, "save_only_model": False},
]

CHILD = r'''
import json, os, sys
case = json.loads(sys.argv[1])
import torch, transformers, accelerate
from transformers import LlamaConfig, LlamaForCausalLM, Trainer, TrainingArguments
res = {"name": case["name"]}
try:
    kw = dict(output_dir="/tmp/o", report_to=[], save_only_model=case.get("save_only_model", True))
    if "fsdp" in case:
        kw["fsdp"] = case["fsdp"]; kw["fsdp_config"] = dict(case["fsdp_config"])
    args = TrainingArguments(**kw)
    model = LlamaForCausalLM(LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4, vocab_size=128))
    t = Trainer(model=model, args=args)
    p = getattr(t.accelerator.state, "fsdp_plugin", None)
    res["fsdp_enabled"] = bool(getattr(t, "is_fsdp_enabled", False))
    res["plugin_state_dict_type"] = str(getattr(p, "state_dict_type", None))
    res["plugin_fsdp_version"] = getattr(p, "fsdp_version", None)
    res["raised"] = None
except Exception as e:
    import traceback
    res["raised"] = f"{type(e).__name__}: {e}"
    res["where"] = [f"{fr.filename.split('site-packages/')[-1]}:{fr.lineno}" for fr in traceback.extract_tb(e.__traceback__)][-3:]
print("RESULT " + json.dumps(res))
'''

def main():
    import transformers, accelerate, torch
    out = {"transformers": transformers.__version__, "accelerate": accelerate.__version__, "torch": torch.__version__, "cases": []}
    for c in CASES:
        env = dict(os.environ, RANK="0", WORLD_SIZE="1", LOCAL_RANK="0", MASTER_ADDR="127.0.0.1", MASTER_PORT="29517")
        env.update(c.get("env", {}))
        p = subprocess.run([sys.executable, "-c", CHILD, json.dumps(c)], env=env, capture_output=True, text=True, timeout=240)
        line = [l for l in p.stdout.splitlines() if l.startswith("RESULT ")]
        r = json.loads(line[-1][7:]) if line else {"name": c["name"], "crash": p.stderr[-1500:]}
        r["case"] = c
        out["cases"].append(r)
        print(json.dumps(r), flush=True)
    open(os.path.join(os.environ.get("OUT", "/tmp"), "save_only_model_fsdp.result.json"), "w").write(json.dumps(out, indent=1))

main()
