#!/usr/bin/env python3
"""Writes ds_cases.json: DeepSpeed / bitsandbytes launch descriptions for run_ds_oracle.py (stdlib only).

Each case has ``id``, ``group``, ``kind`` (see run_ds_oracle.py), ``description`` and, by kind: ``ds`` (a dict
written with ``json.dumps(indent=2)``) or ``ds_text`` (verbatim file text), ``world`` (ds_config), ``training_args``
and ``model`` (hf_trainer), ``config_text`` with ``@DS@`` for the JSON path (accelerate), ``trainer_kwargs``
(lightning). ``rules`` names the launchlint rules the case is evidence for.
"""

from __future__ import annotations

import json
from pathlib import Path

CASES: list[dict] = []


def case(id_, group, kind, description, rules=(), **kw):
    c = {"id": id_, "group": group, "kind": kind, "description": description, "rules": list(rules)}
    c.update(kw)
    CASES.append(c)


def z(stage, **extra):
    return {"stage": stage, **extra}


AUTO = {"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
        "train_batch_size": "auto", "gradient_clipping": "auto"}


def hf_ds(stage=2, **extra):
    d = dict(AUTO)
    d["bf16"] = {"enabled": "auto"}
    d["zero_optimization"] = z(stage)
    d.update(extra)
    return d


# -- 1. batch identity (DS001) over data-parallel sizes ------------------------------------------------
for world in (1, 2, 4, 8):
    for name, vals in [
        ("tbs32_mb4_ga1", {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 1}),
        ("tbs32_mb4_ga2", {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}),
        ("tbs64_mb4_ga2", {"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}),
        ("tbs30_mb4_ga2", {"train_batch_size": 30, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 2}),
        ("mb4_only", {"train_micro_batch_size_per_gpu": 4}),
        ("tbs32_only", {"train_batch_size": 32}),
        ("tbs32_mb4", {"train_batch_size": 32, "train_micro_batch_size_per_gpu": 4}),
        ("tbs30_ga2", {"train_batch_size": 30, "gradient_accumulation_steps": 2}),
    ]:
        case(f"batch-w{world}-{name}", "batch", "ds_config", f"batch values {vals} with data-parallel size {world}",
             ["DS001"], world=world, ds={**vals, "zero_optimization": z(2)})
case("batch-ga-only", "batch", "ds_config", "only gradient_accumulation_steps: neither batch value given",
     ["DS010"], ds={"gradient_accumulation_steps": 4, "zero_optimization": z(2)})

# -- 2. numbers written as strings (DS009) ---------------------------------------------------------------
for name, ds in [
    ("micro", {"train_micro_batch_size_per_gpu": "8", "gradient_accumulation_steps": 1}),
    ("ga", {"train_micro_batch_size_per_gpu": 8, "gradient_accumulation_steps": "4"}),
    ("tbs", {"train_batch_size": "32", "train_micro_batch_size_per_gpu": 8}),
    ("stage", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": "3"}}),
    ("fp16_enabled", {"train_micro_batch_size_per_gpu": 8, "fp16": {"enabled": "true"}}),
    ("bf16_enabled", {"train_micro_batch_size_per_gpu": 8, "bf16": {"enabled": "true"}}),
    ("reduce_bucket", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2, "reduce_bucket_size": "5e8"}}),
    ("reduce_bucket_int", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2, "reduce_bucket_size": "500000000"}}),
    ("max_live", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 3, "stage3_max_live_parameters": "1e9"}}),
    ("loss_scale", {"train_micro_batch_size_per_gpu": 8, "fp16": {"enabled": True, "loss_scale": "0"}}),
    ("clipping", {"train_micro_batch_size_per_gpu": 8, "gradient_clipping": "1.0"}),
    ("float_reduce_bucket", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2, "reduce_bucket_size": 5e8}}),
]:
    case(f"string-{name}", "strings", "ds_config", f"a number or bool written as a string: {ds}", ["DS009"], ds=ds)
for name, ds in [("micro", hf_ds(train_micro_batch_size_per_gpu="8")),
                 ("ga", hf_ds(gradient_accumulation_steps="1")),
                 ("stage", hf_ds(zero_optimization=z("2")))]:
    case(f"string-hf-{name}", "strings", "hf_trainer", f"HF Trainer with a string number: {name}", ["DS009", "HF006"],
         ds=ds, training_args={"bf16": True})
case("string-init-micro", "strings", "ds_initialize", "deepspeed.initialize with micro batch \"2\"", ["DS009"],
     ds={"train_micro_batch_size_per_gpu": "2", "zero_optimization": z(0)})

# -- 3. unknown keys (DS003) ---------------------------------------------------------------------------
for name, ds in [
    ("zero-typo", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2, "overlap_com": True}}),
    ("zero-contigous", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 2, "contigous_gradients": True}}),
    ("zero-prefetch", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 3, "stage3_prefetch_bucket": 1000}}),
    ("offload-devices", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 3, "offload_optimizer": {"devices": "cpu"}}}),
    ("fp16-enable", {"train_micro_batch_size_per_gpu": 8, "fp16": {"enable": True}}),
    ("bf16-enable", {"train_micro_batch_size_per_gpu": 8, "bf16": {"enable": True}}),
    ("top-ga-typo", {"train_micro_batch_size_per_gpu": 8, "gradient_acumulation_steps": 4}),
    ("top-zero-typo", {"train_micro_batch_size_per_gpu": 8, "zero_optimisation": {"stage": 3}}),
    ("top-bf16-enabled", {"train_micro_batch_size_per_gpu": 8, "bf16_enabled": True}),
    ("ok-all-known", {"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": 3, "overlap_comm": True, "contiguous_gradients": True, "stage3_prefetch_bucket_size": 1000, "offload_optimizer": {"device": "cpu", "pin_memory": True}}, "bf16": {"enabled": True}}),
    ("ok-zenflow-absent-wandb", {"train_micro_batch_size_per_gpu": 8, "wandb": {"enabled": False, "project": "x"}}),
    ("monitor-typo", {"train_micro_batch_size_per_gpu": 8, "tensorboard": {"enabled": False, "output": "x"}}),
]:
    case(f"unknown-{name}", "unknown_keys", "ds_config", f"keys: {ds}", ["DS003"], ds=ds)

# -- 4. duplicate keys (DS004) ---------------------------------------------------------------------------
DUP_TOP = '{\n  "train_micro_batch_size_per_gpu": 4,\n  "train_micro_batch_size_per_gpu": 8,\n  "zero_optimization": {"stage": 2}\n}\n'
DUP_NESTED = '{\n  "train_micro_batch_size_per_gpu": 8,\n  "zero_optimization": {"stage": 2, "stage": 3}\n}\n'
case("dup-top-ds", "duplicates", "ds_config", "duplicate top-level key read by DeepSpeed from the path", ["DS004"], ds_text=DUP_TOP)
case("dup-nested-ds", "duplicates", "ds_config", "duplicate nested key read by DeepSpeed from the path", ["DS004"], ds_text=DUP_NESTED)
case("dup-hf", "duplicates", "hf_trainer", "duplicate key under the HF Trainer (json.load keeps the last)", ["DS004"],
     ds_text='{\n  "train_micro_batch_size_per_gpu": "auto",\n  "train_micro_batch_size_per_gpu": "auto",\n'
             '  "gradient_accumulation_steps": "auto",\n  "zero_optimization": {"stage": 2, "stage": 0}\n}\n',
     training_args={})
case("dup-init", "duplicates", "ds_initialize", "duplicate key through deepspeed.initialize(config=path)", ["DS004"],
     ds_text='{\n  "train_micro_batch_size_per_gpu": 2,\n  "train_micro_batch_size_per_gpu": 2\n}\n')

# -- 5. deprecated keys (DS005) --------------------------------------------------------------------------
for name, zo in [
    ("gather-fp16", {"stage": 3, "stage3_gather_fp16_weights_on_model_save": True}),
    ("gather-both", {"stage": 3, "stage3_gather_fp16_weights_on_model_save": True, "stage3_gather_16bit_weights_on_model_save": True}),
    ("cpu-offload", {"stage": 2, "cpu_offload": True}),
    ("cpu-offload-and-new", {"stage": 2, "cpu_offload": True, "offload_optimizer": {"device": "cpu"}}),
    ("cpu-offload-param", {"stage": 3, "cpu_offload_param": True}),
]:
    case(f"deprecated-{name}", "deprecated", "ds_config", f"zero_optimization {zo}", ["DS005"],
         ds={"train_micro_batch_size_per_gpu": 8, "zero_optimization": zo})
case("deprecated-bool-zero", "deprecated", "ds_config", "boolean zero_optimization", ["DS005"],
     ds={"train_micro_batch_size_per_gpu": 8, "zero_optimization": True})

# -- 6. fp16 and bf16 (DS006) ----------------------------------------------------------------------------
case("precision-both", "precision", "ds_config", "fp16 and bf16 both enabled", ["DS006"],
     ds={"train_micro_batch_size_per_gpu": 8, "fp16": {"enabled": True}, "bf16": {"enabled": True}})
case("precision-fp16-only", "precision", "ds_config", "fp16 on, bf16 off", ["DS006"],
     ds={"train_micro_batch_size_per_gpu": 8, "fp16": {"enabled": True}, "bf16": {"enabled": False}})
case("precision-bfloat16-legacy", "precision", "ds_config", "legacy bfloat16 key and fp16 both enabled", ["DS006"],
     ds={"train_micro_batch_size_per_gpu": 8, "fp16": {"enabled": True}, "bfloat16": {"enabled": True}})
case("precision-hf-both", "precision", "hf_trainer", "fp16 and bf16 both enabled under the Trainer", ["DS006"],
     ds={**AUTO, "fp16": {"enabled": True}, "bf16": {"enabled": True}, "zero_optimization": z(2)}, training_args={})

# -- 7. offload with stages (DS007, DS011) --------------------------------------------------------------
for stage in (1, 2, 3):
    case(f"offload-param-stage{stage}-init", "offload", "ds_initialize", f"offload_param cpu with stage {stage}", ["DS007"],
         ds={"train_micro_batch_size_per_gpu": 2, "zero_allow_untested_optimizer": True, "zero_force_ds_cpu_optimizer": False,
             "zero_optimization": z(stage, offload_param={"device": "cpu"})})
case("offload-param-stage2-config", "offload", "ds_config", "offload_param with stage 2: accepted by the config", ["DS007"],
     ds={"train_micro_batch_size_per_gpu": 2, "zero_optimization": z(2, offload_param={"device": "cpu"})})
case("offload-ratio-stage2", "offload", "ds_config", "offload_optimizer ratio 0.5 with stage 2", ["DS007"],
     ds={"train_micro_batch_size_per_gpu": 2, "zero_optimization": z(2, offload_optimizer={"device": "cpu", "ratio": 0.5})})
case("offload-optimizer-torch-opt", "offload", "ds_initialize", "torch optimizer with offload_optimizer cpu", [],
     ds={"train_micro_batch_size_per_gpu": 2, "zero_optimization": z(2, offload_optimizer={"device": "cpu"})})
for stage in (0, 1, 2, 3):
    case(f"single-process-stage{stage}", "single_process", "ds_initialize", f"ZeRO-{stage} on one process", ["DS011"],
         ds={"train_micro_batch_size_per_gpu": 2, "zero_allow_untested_optimizer": True, "zero_optimization": z(stage)})

# -- 8. stage values (DS008) ------------------------------------------------------------------------------
for name, stage in [("4", 4), ("minus1", -1), ("5", 5), ("float", 1.5), ("auto", "auto"), ("3", 3), ("0", 0)]:
    case(f"stage-{name}", "stage", "ds_config", f"zero_optimization.stage = {stage!r}", ["DS008", "DS002"],
         ds={"train_micro_batch_size_per_gpu": 8, "zero_optimization": {"stage": stage}})

# -- 9. "auto" without the HF integration (DS002) ---------------------------------------------------------
case("auto-raw-micro", "auto", "ds_config", "micro batch \"auto\" read by plain DeepSpeed", ["DS002"],
     ds={"train_micro_batch_size_per_gpu": "auto", "zero_optimization": z(2)})
case("auto-raw-fp16", "auto", "ds_config", "fp16.enabled \"auto\" read by plain DeepSpeed", ["DS002"],
     ds={"train_micro_batch_size_per_gpu": 8, "fp16": {"enabled": "auto"}, "zero_optimization": z(2)})
case("auto-raw-clipping", "auto", "ds_config", "gradient_clipping \"auto\" read by plain DeepSpeed", ["DS002"],
     ds={"train_micro_batch_size_per_gpu": 8, "gradient_clipping": "auto", "zero_optimization": z(2)})
case("auto-raw-all", "auto", "ds_config", "the HF example config read by plain DeepSpeed", ["DS002"],
     ds=hf_ds(2))
case("auto-init-stage", "auto", "ds_initialize", "stage \"auto\" through deepspeed.initialize", ["DS002"],
     ds={"train_micro_batch_size_per_gpu": 2, "zero_allow_untested_optimizer": True, "zero_optimization": {"stage": "auto"}})
case("auto-hf-stage", "auto", "hf_trainer", "stage \"auto\" under the HF Trainer", ["DS002"],
     ds=hf_ds("auto"), training_args={"bf16": True})
case("auto-hf-unfilled", "auto", "hf_trainer", "an \"auto\" the Trainer does not fill (sub_group_size)", ["DS002"],
     ds=hf_ds(2, zero_optimization=z(2, allgather_bucket_size="auto")), training_args={"bf16": True})

# -- 10. hjson-only syntax -----------------------------------------------------------------------------------
HJ_COMMENT = '{\n  // micro batch\n  "train_micro_batch_size_per_gpu": "auto",\n  "gradient_accumulation_steps": "auto",\n  "zero_optimization": {"stage": 2}\n}\n'
HJ_TRAILING = '{\n  "train_micro_batch_size_per_gpu": "auto",\n  "gradient_accumulation_steps": "auto",\n  "zero_optimization": {"stage": 2},\n}\n'
case("hjson-comment-ds", "hjson", "ds_config", "a // comment read by DeepSpeed (hjson)", ["LL001"], ds_text=HJ_COMMENT.replace('"auto"', "8"))
case("hjson-trailing-ds", "hjson", "ds_config", "a trailing comma read by DeepSpeed (hjson)", ["LL001"], ds_text=HJ_TRAILING.replace('"auto"', "8"))
case("hjson-comment-hf", "hjson", "hf_trainer", "a // comment read by the HF Trainer (json.load)", ["LL001"], ds_text=HJ_COMMENT, training_args={})
case("hjson-trailing-hf", "hjson", "hf_trainer", "a trailing comma read by the HF Trainer (json.load)", ["LL001"], ds_text=HJ_TRAILING, training_args={})

# -- 11. DeepSpeed values vs TrainingArguments (HF006) -------------------------------------------------------
for name, ds, targs in [
    ("ok-auto", hf_ds(2), {"bf16": True}),
    ("micro", hf_ds(2, train_micro_batch_size_per_gpu=4), {"bf16": True}),
    ("micro-match", hf_ds(2, train_micro_batch_size_per_gpu=4), {"bf16": True, "per_device_train_batch_size": 4}),
    ("ga", hf_ds(2, gradient_accumulation_steps=2), {"bf16": True}),
    ("ga-match", hf_ds(2, gradient_accumulation_steps=2), {"bf16": True, "gradient_accumulation_steps": 2}),
    ("tbs", hf_ds(2, train_batch_size=16), {"bf16": True}),
    ("tbs-match", hf_ds(2, train_batch_size=8), {"bf16": True}),
    ("clipping", hf_ds(2, gradient_clipping=0.5), {"bf16": True}),
    ("lr", hf_ds(2, optimizer={"type": "AdamW", "params": {"lr": 1e-4, "torch_adam": True}}), {"bf16": True}),
    ("lr-match", hf_ds(2, optimizer={"type": "AdamW", "params": {"lr": 1e-4, "torch_adam": True}}), {"bf16": True, "learning_rate": 1e-4}),
    ("betas", hf_ds(2, optimizer={"type": "AdamW", "params": {"betas": [0.9, 0.95], "torch_adam": True}}), {"bf16": True}),
    ("eps", hf_ds(2, optimizer={"type": "AdamW", "params": {"eps": 1e-6, "torch_adam": True}}), {"bf16": True}),
    ("wd", hf_ds(2, optimizer={"type": "AdamW", "params": {"weight_decay": 0.1, "torch_adam": True}}), {"bf16": True}),
    ("bf16-on-flag-off", {**AUTO, "bf16": {"enabled": True}, "zero_optimization": z(2)}, {}),
    ("fp16-on-flag-bf16", {**AUTO, "fp16": {"enabled": True}, "zero_optimization": z(2)}, {"bf16": True}),
    ("bf16-off-flag-on", {**AUTO, "bf16": {"enabled": False}, "zero_optimization": z(2)}, {"bf16": True}),
]:
    case(f"hf-mismatch-{name}", "hf_mismatch", "hf_trainer", f"DeepSpeed {ds} with TrainingArguments {targs}", ["HF006"],
         ds=ds, training_args=targs)

# -- 12. batch keys without the micro batch under the HF integration (DS010) ---------------------------------
for name, ds, targs in [
    ("tbs-only-match", {"train_batch_size": 8, "zero_optimization": z(2)}, {}),
    ("tbs-only-differs", {"train_batch_size": 32, "zero_optimization": z(2)}, {}),
    ("ga-only", {"gradient_accumulation_steps": 1, "zero_optimization": z(2)}, {}),
    ("tbs-ga", {"train_batch_size": 16, "gradient_accumulation_steps": 2, "zero_optimization": z(2)}, {"gradient_accumulation_steps": 2}),
    ("none", {"zero_optimization": z(2)}, {}),
]:
    case(f"hf-batch-{name}", "hf_batch", "hf_trainer", f"DeepSpeed {ds} with TrainingArguments {targs}", ["DS010"],
         ds=ds, training_args=targs)
case("hf-no-zero-section", "hf_batch", "hf_trainer", "no zero_optimization section under the Trainer", [],
     ds=dict(AUTO), training_args={})

# -- 13. quantized loading and device_map under ZeRO-3 (QNT002, QNT003, HF005) -----------------------------
Q4_BF16 = {"load_in_4bit": True, "bnb_4bit_quant_type": "nf4", "bnb_4bit_compute_dtype": "bfloat16", "bnb_4bit_quant_storage": "bfloat16"}
Q4 = {"load_in_4bit": True, "bnb_4bit_quant_type": "nf4", "bnb_4bit_compute_dtype": "bfloat16"}
Q8 = {"load_in_8bit": True}
for stage in (3, 2):
    for name, model in [
        ("plain", {"dtype": "bfloat16"}),
        ("q4-storage", {"quant": Q4_BF16, "dtype": "bfloat16"}),
        ("q4-default-storage", {"quant": Q4, "dtype": "bfloat16"}),
        ("q8", {"quant": Q8, "dtype": "bfloat16"}),
        ("device-map-local", {"device_map": "local", "dtype": "bfloat16"}),
        ("device-map-auto", {"device_map": "auto", "dtype": "bfloat16"}),
        ("q4-device-map-local", {"quant": Q4_BF16, "dtype": "bfloat16", "device_map": "local"}),
        ("low-cpu-mem", {"low_cpu_mem_usage": True, "dtype": "bfloat16"}),
        ("load-in-8bit-kwarg", {"load_in_8bit": True, "dtype": "bfloat16"}),
    ]:
        case(f"zero{stage}-{name}", "zero_quant", "hf_trainer", f"ZeRO-{stage} Trainer, model {model}",
             ["QNT002", "QNT003"], ds=hf_ds(stage), training_args={"bf16": True}, model=model)
case("zero3-loaded-before-args", "zero_quant", "hf_trainer", "ZeRO-3: from_pretrained before TrainingArguments",
     ["HF005"], ds=hf_ds(3), training_args={"bf16": True}, model={"dtype": "bfloat16", "load_before_args": True})
case("zero3-loaded-after-args", "zero_quant", "hf_trainer", "ZeRO-3: from_pretrained after TrainingArguments",
     ["HF005"], ds=hf_ds(3), training_args={"bf16": True}, model={"dtype": "bfloat16"})

# -- 14. bitsandbytes under FSDP through the Trainer (QNT001, FSDP011, QNT002) ------------------------------
for version in (1, 2):
    fsdp_args = {"bf16": True, "fsdp": "full_shard auto_wrap",
                 "fsdp_config": {"version": version, "transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"]}}
    if version == 1:
        fsdp_args["fsdp_config"]["use_orig_params"] = "true"
    for name, model in [
        ("plain", {"dtype": "bfloat16", "lora": True}),
        ("q4-storage-bf16", {"quant": Q4_BF16, "dtype": "bfloat16"}),
        ("q4-default-storage", {"quant": Q4, "dtype": "bfloat16"}),
        ("q4-storage-fp32-dtype-bf16", {"quant": {**Q4, "bnb_4bit_quant_storage": "float32"}, "dtype": "bfloat16"}),
        ("q4-storage-bf16-dtype-fp32", {"quant": Q4_BF16, "dtype": "float32"}),
        ("q8", {"quant": Q8, "dtype": "bfloat16"}),
        ("device-map-local", {"device_map": "local", "dtype": "bfloat16", "lora": True}),
        ("device-map-auto", {"device_map": "auto", "dtype": "bfloat16", "lora": True}),
    ]:
        case(f"fsdp{version}-{name}", "fsdp_quant", "hf_trainer", f"FSDP{version} Trainer, model {model}",
             ["QNT001", "FSDP011", "QNT002"], training_args=fsdp_args, model=model)
case("fsdp-and-deepspeed", "fsdp_quant", "hf_trainer", "Trainer with fsdp and deepspeed together", ["FSDP016"],
     ds=hf_ds(2), training_args={"bf16": True, "fsdp": "full_shard auto_wrap"})

# -- 15. Lightning DeepSpeedStrategy(config=) (PL003) ---------------------------------------------------------
for name, ds in [
    ("plain", {"zero_optimization": z(2), "bf16": {"enabled": False}}),
    ("ga", {"gradient_accumulation_steps": 2, "zero_optimization": z(2)}),
    ("tbs-consistent", {"train_batch_size": 2, "zero_optimization": z(2)}),
    ("tbs-differs", {"train_batch_size": 16, "zero_optimization": z(2)}),
    ("micro", {"train_micro_batch_size_per_gpu": 2, "zero_optimization": z(2)}),
]:
    case(f"lightning-{name}", "lightning", "lightning", f"DeepSpeedStrategy(config={ds})", ["PL003"], ds=ds)

# -- 16. accelerate's deepspeed_config section (ACC011, ACC006) ----------------------------------------------
ACC_HEAD = "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\nnum_processes: 1\nnum_machines: 1\nmachine_rank: 0\n"
for name, section, extra, ds in [
    ("ok", "  zero_stage: 3\n  offload_optimizer_device: none\n  zero3_init_flag: true\n", "", None),
    ("micro-in-section", "  zero_stage: 2\n  train_micro_batch_size_per_gpu: 4\n", "", None),
    ("typo-zero-stages", "  zero_stages: 3\n", "", None),
    ("bf16-in-section", "  zero_stage: 2\n  bf16:\n    enabled: true\n", "", None),
    ("file-only", "  deepspeed_config_file: @DS@\n", "", hf_ds(2)),
    ("file-and-stage", "  deepspeed_config_file: @DS@\n  zero_stage: 3\n", "", hf_ds(2)),
    ("file-and-mixed-precision", "  deepspeed_config_file: @DS@\n", "mixed_precision: bf16\n", hf_ds(2)),
    ("file-and-unknown", "  deepspeed_config_file: @DS@\n  train_batch_size: 16\n", "", hf_ds(2)),
    ("file-no-zero", "  deepspeed_config_file: @DS@\n", "", dict(AUTO)),
]:
    case(f"accelerate-{name}", "accelerate", "accelerate", f"accelerate config deepspeed_config: {section.strip()}",
         ["ACC011", "ACC006"], config_text=ACC_HEAD + extra + "deepspeed_config:\n" + section, ds=ds)


def main():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    out = Path(__file__).with_name("ds_cases.json")
    out.write_text(json.dumps({"format": "launchlint-ds-oracle-cases/1", "cases": CASES}, indent=1) + "\n",
                   encoding="utf-8")
    print(f"wrote {out}: {len(CASES)} cases")


if __name__ == "__main__":
    main()
