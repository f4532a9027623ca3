# Which FSDP version does the Trainer use for fsdp_config={"fsdp_version": 1, "version": 2} (and the reverse order)?
import json, os, sys, transformers, accelerate, torch
from transformers import TrainingArguments
out = {"transformers": transformers.__version__, "accelerate": accelerate.__version__, "torch": torch.__version__, "cases": []}
for cfg in ({"fsdp_version": 1, "version": 2}, {"version": 2, "fsdp_version": 1}, {"version": 1}, {}):
    case = {"fsdp_config": dict(cfg)}
    try:
        a = TrainingArguments(output_dir="/tmp/o", fsdp="full_shard auto_wrap", fsdp_config=dict(cfg), report_to=[])
        case["fsdp_config_after"] = {k: str(v) for k, v in a.fsdp_config.items()}
        case["version"] = a.fsdp_config.get("version")
        plugin_args = getattr(a, "fsdp_plugin_args", None) or {}
        case["plugin_fsdp_version"] = plugin_args.get("fsdp_version")
        case["env_FSDP_VERSION"] = os.environ.get("FSDP_VERSION")
    except Exception as e:
        case["error"] = f"{type(e).__name__}: {e}"
    out["cases"].append(case)
print(json.dumps(out, indent=1))
open(os.path.join(os.environ.get("OUT", "/tmp"), "probe.json"), "w").write(json.dumps(out, indent=1))
