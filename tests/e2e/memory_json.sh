#!/usr/bin/env bash
# `launchlint explain --memory --format json`: the documented shape (docs/memory.md) on every example and fixture,
# and the bundled 7B LoRA example within 10% of its measured SHARD_GRAD_OP / FULL_SHARD peaks.
set -euo pipefail
bin=$1
# Through a file: the JSON of every fixture is larger than one command-line argument may be (MAX_ARG_STRLEN).
json_file=$(mktemp)
trap 'rm -f "$json_file"' EXIT
"$bin" explain --memory --format json examples fixtures > "$json_file"
python3 - "$json_file" <<'PY'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    launches = json.load(f)
assert launches, "no launch"
keys = {"available", "label", "peak_bytes", "peak_bytes_low", "peak_bytes_high", "reserved_bytes", "steady_bytes",
        "peak_phase", "params", "trainable_params", "breakdown", "assumptions", "unknowns"}
names = {"parameters", "optimizer_state", "gradients", "optimizer_temporaries", "ddp_buckets", "gathered_units",
         "activations", "logits", "unit_gradients", "cublas_workspaces", "reduce_bucket", "allocator_overhead"}
available = 0
for l in launches:
    m = l["memory"]
    if not m["available"]:
        assert m["reason"], l
        continue
    available += 1
    missing = keys - set(m)
    assert not missing, (l["name"], missing)
    assert m["peak_bytes_low"] <= m["peak_bytes"] <= m["peak_bytes_high"], l["name"]
    assert m["reserved_bytes"] >= m["peak_bytes"], l["name"]
    parts = [t for t in m["breakdown"] if t["name"] != "allocator_overhead"]
    assert all(t["name"] in names for t in m["breakdown"]), l["name"]
    assert abs(sum(t["bytes"] for t in parts) - m["peak_bytes"]) <= 1024 * len(parts), l["name"]
assert available >= 10, available
ex = [l for l in launches if l["name"].startswith("examples/7b-lora-shard-grad-op/launch.sh")][0]
gib = 1024 ** 3
sgo = ex["memory"]["peak_bytes"] / gib
full = ex["alternatives"][0]["peak_bytes"] / gib
assert ex["memory"]["label"].startswith("FSDP1 SHARD_GRAD_OP"), ex["memory"]["label"]
assert abs(sgo / 23.6 - 1) <= 0.10, sgo
assert abs(full / 11.9 - 1) <= 0.10, full
print(f"ok: {available} estimates; example SHARD_GRAD_OP {sgo:.1f} GiB, FULL_SHARD {full:.1f} GiB")
PY
