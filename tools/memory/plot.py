#!/usr/bin/env python3
"""Plots launchlint's memory estimates against the measurements, next to accelerate's `estimate-memory` and the
DeepSpeed ZeRO estimators computed with their published formulas on the same configurations.

Inputs: docs/memory/measurements.jsonl (tools/memory/measure.py) and docs/memory/estimates.csv (written by
`LAUNCHLINT_MEMORY_CSV=docs/memory/estimates.csv build/tests/launchlint_tests "estimates agree*"`).
Outputs: docs/memory/estimate_vs_measured.png, docs/memory/reserved_vs_measured.png, docs/memory/estimators_7b_lora.png,
docs/memory/comparison.md.

Other estimators (formulas as in their code):
- accelerate 1.15 `accelerate estimate-memory` (src/accelerate/commands/estimate.py, estimate_training_usage):
  "Training using Adam" for a bf16 model of B bytes is max(B, 1.5 B, 2 B) = 2 B = 4 bytes per parameter, whatever
  the sharding, the trainable fraction or the activations.
- DeepSpeed 0.19 estimate_zero2_model_states_mem_needs (runtime/zero/stage_1_and_2.py): 2P + 18P/N per GPU;
  estimate_zero3_model_states_mem_needs (runtime/zero/stage3.py): 4 L + 18P/N, L the largest module's parameters
  (the embedding here); both count every parameter, trainable or not, and no activations.
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

GiB = 1024**3
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = os.path.join(ROOT, "docs", "memory")
VOCAB_HIDDEN = {"llama-2-7b": 32000 * 4096, "llama-3.1-8b": 128256 * 4096, "llama-3.2-3b": 128256 * 3072,
                "qwen2.5-0.5b": 151936 * 896, "qwen2.5-1.5b": 151936 * 1536, "llama-3.2-1b": 128256 * 2048,
                "gemma-2-2b": 256000 * 2304, "gemma-3-1b": 262144 * 1152, "phi-3-mini": 32064 * 3072,
                "mistral-7b-v0.3": 32768 * 4096, "qwen3-1.7b": 151936 * 2048, "olmo-2-7b": 100352 * 4096,
                "gpt2-large": 50257 * 1280}


def main():
    meas = {}
    with open(os.path.join(DOCS, "measurements.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            meas[r["name"]] = r
    rows = list(csv.DictReader(open(os.path.join(DOCS, "estimates.csv"))))
    pts = []
    for row in rows:
        r = meas[row["name"]]
        c = r["cfg"]
        p = float(row["params"])
        n = max(1, int(row["world_size"]))
        # accelerate estimate-memory for the loaded dtype (int4 for QLoRA): 4x the model's bytes.
        dtype_bytes = 0.5 if c.get("quant") else 2.0
        reliable = row["reserved_reliable"] == "1"
        pts.append(dict(name=row["name"], cfg=c, measured=float(row["measured_peak"]) / GiB,
                        launchlint=float(row["estimated_peak"]) / GiB,
                        res_measured=float(row["measured_reserved"]) / GiB,
                        res_max=(r.get("reserved_bytes_max") or r["reserved_bytes"]) / GiB,
                        res_launchlint=float(row["estimated_reserved"]) / GiB,
                        res_checked=reliable or "reserved_bytes_max" in r, res_reliable=reliable,
                        accelerate=2 * dtype_bytes * p / GiB,
                        zero2=(2 * p + 18 * p / n) / GiB,
                        zero3=(4 * VOCAB_HIDDEN[c["model"]] + 18 * p / n) / GiB))

    # 1. Estimate vs measured, every configuration.
    fig, ax = plt.subplots(figsize=(6.5, 6))
    lim = max(max(q["measured"], q["launchlint"]) for q in pts) * 1.1
    ax.plot([0, lim], [0, lim], color="black", lw=0.8)
    ax.fill_between([0, lim], [0, lim * 0.9], [0, lim * 1.1], color="green", alpha=0.12, label="±10%")
    def kind(q):
        return "qlora" if q["cfg"].get("quant") else q["cfg"]["train"]

    kinds = (("lora", "o", "LoRA"), ("qlora", "^", "QLoRA"), ("full", "s", "full fine-tune"))
    for k, marker, label in kinds:
        sel = [q for q in pts if kind(q) == k]
        ax.scatter([q["measured"] for q in sel], [q["launchlint"] for q in sel], marker=marker, s=18,
                   label=f"launchlint, {label} ({len(sel)})")
    ax.set_xlabel("measured peak allocated per GPU (GiB)")
    ax.set_ylabel("estimated peak (GiB)")
    ax.set_xlim(0, lim)
    ax.set_ylim(0, lim)
    ax.set_title(f"launchlint estimate vs measurement ({len(pts)} configurations, H200)")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "estimate_vs_measured.png"), dpi=110)

    # 1b. Reserved (caching allocator) vs measured: single values and intervals (tools/memory/import_results.py).
    chk = [q for q in pts if q["res_checked"]]
    fig, ax = plt.subplots(figsize=(6.5, 6))
    lim = max(max(q["res_max"], q["res_launchlint"]) for q in chk) * 1.1
    ax.plot([0, lim], [0, lim], color="black", lw=0.8)
    ax.fill_between([0, lim], [0, lim * 0.85], [0, lim * 1.15], color="green", alpha=0.12, label="±15%")
    for k, marker, label in kinds:
        sel = [q for q in chk if kind(q) == k]
        ax.scatter([q["res_measured"] for q in sel], [q["res_launchlint"] for q in sel], marker=marker, s=18,
                   label=f"{label} ({len(sel)})")
        for q in sel:
            if q["res_max"] > q["res_measured"] * 1.001:
                ax.plot([q["res_measured"], q["res_max"]], [q["res_launchlint"]] * 2, color="gray", lw=0.8)
    ax.set_xlabel("measured peak reserved per GPU (GiB; a segment: measured between)")
    ax.set_ylabel("estimated peak reserved (GiB)")
    ax.set_xlim(0, lim)
    ax.set_ylim(0, lim)
    ax.set_title(f"Reserved memory: estimate vs measurement ({len(chk)} configurations)")
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "reserved_vs_measured.png"), dpi=110)

    # 2. The 7B LoRA table: every estimator on the same six configurations.
    names = ["l2-7b_lora_ddp_ac0", "l2-7b_lora_sgo_ac0", "l2-7b_lora_fs_ac0", "l2-7b_lora_ddp_ac1",
             "l2-7b_lora_sgo_ac1", "l2-7b_lora_fs_ac1"]
    labels = ["DDP", "SHARD_GRAD_OP", "FULL_SHARD", "DDP+AC", "SGO+AC", "FULL_SHARD+AC"]
    by = {q["name"]: q for q in pts}
    fig, ax = plt.subplots(figsize=(9, 4.5))
    width = 0.17
    series = [("measured", "measured"), ("launchlint", "launchlint"), ("accelerate", "accelerate estimate-memory"),
              ("zero2", "DeepSpeed ZeRO-2 estimator"), ("zero3", "DeepSpeed ZeRO-3 estimator")]
    for i, (key, label) in enumerate(series):
        ax.bar([k + (i - 2) * width for k in range(len(names))], [by[n][key] for n in names], width, label=label)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(labels)
    ax.set_ylabel("GiB per GPU")
    ax.set_title("Llama-2-7B LoRA r=16 (q,k,v,o), 8 ranks, seq 2048, micro-batch 1")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(DOCS, "estimators_7b_lora.png"), dpi=110)

    # 3. A table of all configurations.
    with open(os.path.join(DOCS, "comparison.md"), "w") as f:
        f.write("Peak allocated and peak reserved per GPU, GiB. Reserved: `-` where the measurement is not usable (runs 1"
                " and 3 before the allocator state was recorded), `a-b` where it lies between a and b (run 4, and the rows"
                " whose `reserved_note` in measurements.jsonl says why).\n\n")
        f.write("| configuration | measured | launchlint | error | reserved measured | reserved launchlint |"
                " accelerate estimate-memory | DeepSpeed ZeRO-2 | DeepSpeed ZeRO-3 |\n")
        f.write("|---|---|---|---|---|---|---|---|---|\n")
        for q in sorted(pts, key=lambda q: q["name"]):
            err = (q["launchlint"] / q["measured"] - 1) * 100
            if not q["res_checked"]:
                res = "-"
            elif q["res_reliable"]:
                res = f"{q['res_measured']:.2f}"
            else:
                res = f"{q['res_measured']:.2f}-{q['res_max']:.2f}"
            f.write(f"| {q['name']} | {q['measured']:.2f} | {q['launchlint']:.2f} | {err:+.1f}% | {res} |"
                    f" {q['res_launchlint']:.2f} | {q['accelerate']:.1f} | {q['zero2']:.1f} | {q['zero3']:.1f} |\n")
    errs = sorted(abs(q["launchlint"] / q["measured"] - 1) for q in pts)
    print(f"{len(pts)} configurations: median |error| {errs[len(errs) // 2] * 100:.1f}%, max {errs[-1] * 100:.1f}%")
    for key in ("accelerate", "zero2", "zero3"):
        e = sorted(abs(q[key] / q["measured"] - 1) for q in pts)
        print(f"  {key}: median |error| {e[len(e) // 2] * 100:.0f}%, max {e[-1] * 100:.0f}%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
