#!/usr/bin/env python3
"""Generate the ground-truth oracle's launch descriptions (``tools/oracle/cases.json``).

A *case* describes one way of launching a training script: an accelerate config file, the
``accelerate launch`` flags, the shell environment, and what the script itself builds (a
``FullyShardedDataParallelPlugin`` or HF ``TrainingArguments``). ``run_oracle.py`` feeds every case
through the real accelerate / transformers / torch code and records the effective FSDP settings or
the exception. The case format is documented in ``tools/oracle/README.md``.

The set is systematic (a matrix over sharding strategies, FSDP versions, reshard values, CLI
overrides, boolean spellings, YAML typing traps, unknown keys, wrap policies, state-dict types,
Trainer options) plus one case for every probe recorded while the rules were researched (from the libraries'
source and small runs: p1 A-Z, p2, p3 T1-T14). Those carry ``recorded: {ref, expect}`` so that
``compare_probes.py`` can check the recorded behaviour against the oracle's results.

Standard library only; the output is deterministic (same input, byte-identical file).

Usage: python3 tools/oracle/generate_cases.py [--out tools/oracle/cases.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

class _Absent:
    """Marks a key the case leaves out of the config (prints as 'absent' in descriptions)."""

    def __repr__(self):
        return "absent"

    __str__ = __repr__


ABSENT = _Absent()

# The five torch FSDP1 strategy names accelerate accepts (accelerate/utils/constants.py).
STRATEGIES = ["FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD", "HYBRID_SHARD_ZERO2"]

# Operational TrainingArguments used for every Trainer case (no logging, no saving).
TRAINER_BASE = {"report_to": "none"}


# --------------------------------------------------------------------------------------------------
# Helpers that build case dictionaries
# --------------------------------------------------------------------------------------------------

def acc_config(fsdp_config=ABSENT, **top):
    """An accelerate ``ClusterConfig`` dict for ``distributed_type: FSDP`` on 2 processes.

    ``top`` overrides/adds top-level keys; a value of ``ABSENT`` removes the key.
    ``fsdp_config`` holds only what the case is about, so every other FSDP setting takes the
    ``accelerate launch`` flag default (as a real minimal config would).
    """
    cfg = {
        "compute_environment": "LOCAL_MACHINE",
        "distributed_type": "FSDP",
        "mixed_precision": "bf16",
        "num_machines": 1,
        "machine_rank": 0,
        "num_processes": 2,
    }
    if fsdp_config is not ABSENT:
        cfg["fsdp_config"] = {k: v for k, v in fsdp_config.items() if v is not ABSENT}
    for key, value in top.items():
        if value is ABSENT:
            cfg.pop(key, None)
        else:
            cfg[key] = value
    return cfg


def fsdp(version=ABSENT, **keys):
    """An ``fsdp_config`` dict; ``version`` becomes ``fsdp_version`` unless ABSENT."""
    out = {}
    if version is not ABSENT:
        out["fsdp_version"] = version
    out.update(keys)
    return out


def case(
    cid,
    group,
    description,
    *,
    config=None,
    config_text=None,
    config_format="yaml",
    launcher=None,
    launch_flags=(),
    env=None,
    plugin_kwargs=None,
    training_args=None,
    prepare=False,
    model=None,
    recorded=None,
):
    """Build one case dict in the documented key order.

    ``launcher`` defaults to True when there is a config or a launch flag (the script is started
    with ``accelerate launch``), else False (``python train.py`` / ``torchrun train.py``: only
    ``env`` and the script's own objects count).
    """
    if launcher is None:
        launcher = config is not None or config_text is not None or bool(launch_flags)
    if plugin_kwargs is not None and training_args is not None:
        raise ValueError(f"{cid}: plugin_kwargs and training_args are exclusive")
    if training_args is not None:
        training_args = {**TRAINER_BASE, **training_args}
    out = {
        "id": cid,
        "group": group,
        "description": description,
        "launcher": launcher,
        "config": config,
        "config_text": config_text,
        "config_format": config_format,
        "launch_flags": list(launch_flags),
        "env": dict(env or {}),
        "plugin_kwargs": plugin_kwargs,
        "training_args": training_args,
        "prepare": prepare,
    }
    if model is not None:
        out["model"] = model
    if recorded is not None:
        out["recorded"] = recorded
    return out


def kn(ref, **expect):
    """Knowledge reference + expectation. Keys are dotted result paths; '__' stands for '.'.

    A key ending in '_contains' is a substring test (on the string, or on any warning message).
    """
    out = {}
    for key, value in expect.items():
        path = key.replace("__", ".")
        if path.endswith("_contains"):
            path = path[: -len("_contains")] + "~"
        out[path] = value
    return {"ref": ref, "expect": out}


def slug(value) -> str:
    """A stable id fragment for a value."""
    if value is ABSENT:
        return "absent"
    if value is True:
        return "True"
    if value is False:
        return "False"
    text = str(value)
    if isinstance(value, str) and text in ("1", "2", "3", "4", "5", "6"):
        text = "s" + text  # string digit, distinct from the int
    return re.sub(r"[^A-Za-z0-9_.]+", "_", text) or "empty"


# --------------------------------------------------------------------------------------------------
# The matrix
# --------------------------------------------------------------------------------------------------

def group_sharding_strategy():
    """fsdp_sharding_strategy spellings x fsdp_version."""
    values = STRATEGIES + ["full_shard", "Shard_Grad_Op", "hybrid_shard_zero2", 1, 2, 3, 4, 5,
                           "SHARD_OP", "ZERO3", 6]
    out = []
    for version in [ABSENT, 2]:
        for value in values:
            out.append(case(
                f"ss-v{slug(version)}-{slug(value)}", "sharding_strategy",
                f"fsdp_sharding_strategy: {value!r}, fsdp_version {('absent' if version is ABSENT else version)!s}",
                config=acc_config(fsdp(version, fsdp_sharding_strategy=value)),
            ))
    for version in [1, "2", 3]:
        for value in STRATEGIES:
            out.append(case(
                f"ss-v{slug(version)}-{slug(value)}", "sharding_strategy",
                f"fsdp_sharding_strategy: {value}, fsdp_version: {version!r}",
                config=acc_config(fsdp(version, fsdp_sharding_strategy=value)),
            ))
    return out


def group_reshard_after_forward():
    """fsdp_reshard_after_forward values x fsdp_version, alone and next to a sharding strategy."""
    out = []
    values = [True, False, "true", "false", "SHARD_GRAD_OP", "FULL_SHARD", "NO_SHARD", "shard_grad_op"]
    for version in [ABSENT, 1, 2]:
        for value in values:
            out.append(case(
                f"raf-v{slug(version)}-{slug(value)}", "reshard_after_forward",
                f"fsdp_reshard_after_forward: {value!r}, fsdp_version {('absent' if version is ABSENT else version)!s}",
                config=acc_config(fsdp(version, fsdp_reshard_after_forward=value)),
            ))
    for version in [1, 2]:
        for value in [True, False, "SHARD_GRAD_OP", "FULL_SHARD"]:
            out.append(case(
                f"raf-ss-v{version}-{slug(value)}", "reshard_after_forward",
                f"fsdp_sharding_strategy: NO_SHARD and fsdp_reshard_after_forward: {value!r}, v{version}",
                config=acc_config(fsdp(version, fsdp_sharding_strategy="NO_SHARD",
                                       fsdp_reshard_after_forward=value)),
            ))
    # The shape `accelerate config` writes (v1 strategy in fsdp_reshard_after_forward) and TRL's fsdp1.yaml.
    out.append(case(
        "raf-trl-fsdp1", "reshard_after_forward",
        "TRL fsdp1.yaml shape: fsdp_version 1 + fsdp_reshard_after_forward FULL_SHARD + TRANSFORMER_BASED_WRAP",
        config=acc_config(fsdp(1, fsdp_reshard_after_forward="FULL_SHARD",
                               fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
                               fsdp_backward_prefetch="BACKWARD_PRE", fsdp_forward_prefetch=True,
                               fsdp_cpu_ram_efficient_loading=True, fsdp_offload_params=False,
                               fsdp_state_dict_type="FULL_STATE_DICT", fsdp_sync_module_states=True,
                               fsdp_use_orig_params=True, fsdp_activation_checkpointing=False)),
    ))
    return out


def group_cli():
    """accelerate launch flags over a config file (and without one)."""
    base_v1 = acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP"))
    base_v2 = acc_config(fsdp(2, fsdp_reshard_after_forward=True))
    out = []
    specs = [
        ("ss-full", base_v1, ["--fsdp_sharding_strategy", "FULL_SHARD"], "underscore flag over YAML SHARD_GRAD_OP"),
        ("ss-dash-no", base_v1, ["--fsdp-sharding-strategy", "NO_SHARD"], "dash spelling of the flag"),
        ("ss-hybrid", base_v1, ["--fsdp_sharding_strategy", "HYBRID_SHARD"], "HYBRID_SHARD from the CLI"),
        ("ss-invalid", base_v1, ["--fsdp_sharding_strategy", "SHARD_OP"], "invalid strategy from the CLI"),
        ("ss-on-v2", base_v2, ["--fsdp_sharding_strategy", "SHARD_GRAD_OP"], "CLI strategy under FSDP2"),
        ("ver2-over-v1", base_v1, ["--fsdp_version", "2"], "--fsdp_version 2 over a v1 YAML with SHARD_GRAD_OP"),
        ("ver-dash2-over-v1", base_v1, ["--fsdp-version", "2"], "--fsdp-version 2 (dash)"),
        ("ver1-over-v2", base_v2, ["--fsdp_version", "1"], "--fsdp_version 1 over a v2 YAML"),
        ("ver3", base_v1, ["--fsdp_version", "3"], "--fsdp_version 3: argparse choices"),
        ("raf-false-over-v2", base_v2, ["--fsdp_reshard_after_forward", "false"], "CLI reshard false over YAML true"),
        ("raf-sgo-over-v1", base_v1, ["--fsdp_reshard_after_forward", "SHARD_GRAD_OP"], "CLI v1 reshard name"),
        ("multi-gpu", base_v1, ["--multi_gpu"], "--multi_gpu with distributed_type FSDP"),
        ("use-deepspeed", base_v1, ["--use_deepspeed"], "--use_deepspeed with distributed_type FSDP"),
        ("use-fsdp", base_v1, ["--use_fsdp"], "--use_fsdp with distributed_type FSDP (redundant)"),
        ("use-fsdp-on-multigpu-yaml", acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP"),
                                                 distributed_type="MULTI_GPU"),
         ["--use_fsdp"], "--use_fsdp over a MULTI_GPU YAML that also has an fsdp_config"),
        ("multi-gpu-and-use-fsdp", base_v1, ["--multi_gpu", "--use_fsdp"], "two paradigm flags"),
        ("multi-gpu-1proc", base_v1, ["--multi_gpu", "--num_processes", "1"], "--multi_gpu with 1 process"),
        ("mp-fp16", base_v1, ["--mixed_precision", "fp16"], "--mixed_precision fp16 over YAML bf16"),
        ("mp-no", base_v1, ["--mixed_precision", "no"], "--mixed_precision no over YAML bf16"),
        ("mp-fp32", base_v1, ["--mixed_precision", "fp32"], "--mixed_precision fp32 (not a choice)"),
        ("mp-dash-bf16", acc_config(fsdp(1), mixed_precision="no"), ["--mixed-precision", "bf16"], "dash spelling"),
        ("sync-false-cli", base_v1, ["--fsdp_sync_module_states", "false"], "CLI string 'false' is truthy in the launcher check"),
        ("cre-false-cli", base_v1, ["--fsdp_cpu_ram_efficient_loading", "false", "--fsdp_sync_module_states", "false"], "both off on CLI"),
        ("sd-local-v2", base_v2, ["--fsdp_state_dict_type", "LOCAL_STATE_DICT"], "CLI LOCAL_STATE_DICT under v2"),
        ("ac-true", base_v2, ["--fsdp_activation_checkpointing", "true"], "CLI activation checkpointing"),
        ("awp-size-min", acc_config(fsdp(1)), ["--fsdp_auto_wrap_policy", "SIZE_BASED_WRAP", "--fsdp_min_num_params", "2000"], "CLI size wrap"),
        ("min-params-float", acc_config(fsdp(1, fsdp_auto_wrap_policy="SIZE_BASED_WRAP")), ["--fsdp_min_num_params", "1e8"], "CLI min_num_params 1e8: argparse type=int"),
        ("bwd-policy-flag", base_v1, ["--fsdp_backward_prefetch_policy", "BACKWARD_PRE"], "removed flag"),
        ("num-proc-override", base_v1, ["--num_processes", "8"], "--num_processes over YAML 2"),
        ("gpu-ids-one", acc_config(fsdp(1), distributed_type="MULTI_GPU"), ["--gpu_ids", "0"], "one gpu id with MULTI_GPU"),
    ]
    for name, cfg, flags, desc in specs:
        out.append(case(f"cli-{name}", "cli", desc, config=cfg, launch_flags=flags))
    # No config file at all: flags alone.
    out.append(case("cli-noconfig-use-fsdp", "cli", "no config file: --use_fsdp --num_processes 2",
                    launch_flags=["--use_fsdp", "--num_processes", "2"]))
    out.append(case("cli-noconfig-use-fsdp-v2", "cli", "no config file: --use_fsdp --fsdp_version 2",
                    launch_flags=["--use_fsdp", "--fsdp_version", "2", "--num_processes", "2", "--mixed_precision", "bf16"]))
    out.append(case("cli-noconfig-sgo", "cli", "no config file: --use_fsdp --fsdp_sharding_strategy SHARD_GRAD_OP",
                    launch_flags=["--use_fsdp", "--fsdp_sharding_strategy", "SHARD_GRAD_OP", "--num_processes", "2"]))
    out.append(case("cli-noconfig-nproc-default", "cli", "no config file, no --num_processes (device count is used)",
                    launch_flags=["--use_fsdp"]))
    return out


def group_booleans():
    """Odd boolean spellings in str_to_bool fields."""
    out = []
    values = ["yes", "On", "T", "Y", "n", "OFF", "maybe", "nope", 1, 0, True, "TRUE"]
    fields = ["fsdp_activation_checkpointing", "fsdp_offload_params", "fsdp_use_orig_params", "fsdp_forward_prefetch"]
    for field in fields:
        for value in values:
            out.append(case(
                f"bool-{field.replace('fsdp_', '')}-{slug(value)}", "booleans",
                f"{field}: {value!r} (v1)",
                config=acc_config(fsdp(1, **{field: value})),
            ))
    # v2 reshard_after_forward spellings (str_to_bool) and a few under v2 for activation checkpointing.
    for value in ["yes", "Off", "2", "maybe"]:
        out.append(case(f"bool-v2-raf-{slug(value)}", "booleans", f"v2 fsdp_reshard_after_forward: {value!r}",
                        config=acc_config(fsdp(2, fsdp_reshard_after_forward=value))))
    return out


def group_sync_cre():
    """fsdp_sync_module_states x fsdp_cpu_ram_efficient_loading x version."""
    out = []
    for version in [1, 2]:
        for sync in [ABSENT, True, False, "false", "no", 0]:
            for cre in [ABSENT, True, False]:
                out.append(case(
                    f"sync-v{version}-s{slug(sync)}-c{slug(cre)}", "sync_cre",
                    f"v{version} fsdp_sync_module_states={('absent' if sync is ABSENT else repr(sync))} "
                    f"fsdp_cpu_ram_efficient_loading={('absent' if cre is ABSENT else repr(cre))}",
                    config=acc_config(fsdp(version, fsdp_sync_module_states=sync, fsdp_cpu_ram_efficient_loading=cre)),
                ))
    return out


def group_wrap():
    """fsdp_auto_wrap_policy values and min_num_params forms."""
    out = []
    for version in [1, 2]:
        for policy in ["TRANSFORMER_BASED_WRAP", "transformer_based_wrap", "SIZE_BASED_WRAP", "size_based_wrap",
                       "NO_WRAP", "no_wrap", "TRANSFORMER", "AUTO_WRAP", ABSENT]:
            out.append(case(f"awp-v{version}-{slug(policy)}", "auto_wrap", f"v{version} fsdp_auto_wrap_policy: {policy!s}",
                            config=acc_config(fsdp(version, fsdp_auto_wrap_policy=policy))))
    for name, value in [("0", 0), ("int", 100000000), ("str_1e8", "1e8"), ("str_100", "100"), ("float", 1.5e3), ("absent", ABSENT)]:
        out.append(case(f"minp-{name}", "auto_wrap", f"SIZE_BASED_WRAP with fsdp_min_num_params {value!r}",
                        config=acc_config(fsdp(1, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=value))))
    out.append(case("awp-cls-list", "auto_wrap", "TRANSFORMER_BASED_WRAP with cls 'LlamaDecoderLayer, LlamaMLP' (space)",
                    config=acc_config(fsdp(2, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
                                           fsdp_transformer_layer_cls_to_wrap="LlamaDecoderLayer, LlamaMLP"))))
    out.append(case("awp-cls-on-size", "auto_wrap", "cls given with SIZE_BASED_WRAP",
                    config=acc_config(fsdp(2, fsdp_auto_wrap_policy="SIZE_BASED_WRAP",
                                           fsdp_transformer_layer_cls_to_wrap="LlamaDecoderLayer"))))
    return out


def group_state_dict_and_prefetch():
    out = []
    for version in [1, 2]:
        for sd in ["FULL_STATE_DICT", "SHARDED_STATE_DICT", "LOCAL_STATE_DICT", "sharded_state_dict", 1, 2, 3, "FULL", ABSENT]:
            out.append(case(f"sd-v{version}-{slug(sd)}", "state_dict_type", f"v{version} fsdp_state_dict_type: {sd!s}",
                            config=acc_config(fsdp(version, fsdp_state_dict_type=sd))))
    for version in [1, 2]:
        for bp in ["BACKWARD_PRE", "backward_post", "NO_PREFETCH", 1, "BACKWARD_NONE"]:
            out.append(case(f"bwd-v{version}-{slug(bp)}", "prefetch", f"v{version} fsdp_backward_prefetch: {bp!s}",
                            config=acc_config(fsdp(version, fsdp_backward_prefetch=bp))))
        out.append(case(f"fwd-v{version}-true", "prefetch", f"v{version} fsdp_forward_prefetch: true",
                        config=acc_config(fsdp(version, fsdp_forward_prefetch=True))))
    return out


def group_keys():
    """Unknown / misspelled / removed / un-prefixed keys and missing required ones."""
    out = []
    specs = [
        ("top-typo", acc_config(fsdp(1), num_process=2), "unknown top-level key num_process"),
        ("top-fsdp-key", acc_config(fsdp(1), fsdp_sharding_strategy="SHARD_GRAD_OP"), "fsdp_sharding_strategy at top level"),
        ("top-fsdp-version", acc_config(fsdp(), fsdp_version=2), "fsdp_version at top level"),
        ("sub-typo-ss", acc_config(fsdp(1, fsdp_sharding_stratgy="SHARD_GRAD_OP")), "typo fsdp_sharding_stratgy"),
        ("sub-typo-offload", acc_config(fsdp(1, fsdp_offload_param=True)), "typo fsdp_offload_param"),
        ("sub-removed-bwd-policy", acc_config(fsdp(1, fsdp_backward_prefetch_policy="BACKWARD_PRE")), "removed fsdp_backward_prefetch_policy"),
        ("sub-unprefixed-v2", acc_config({"version": 2, "reshard_after_forward": False}), "un-prefixed version/reshard_after_forward"),
        ("sub-unprefixed-ss", acc_config({"fsdp_version": 1, "sharding_strategy": "NO_SHARD", "activation_checkpointing": True}), "un-prefixed sharding_strategy / activation_checkpointing"),
        ("sub-trainer-style", acc_config({"fsdp_version": 2, "cpu_offload": True, "transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"]}), "Trainer-style keys in an accelerate fsdp_config"),
        ("missing-dt", acc_config(fsdp(1), distributed_type=ABSENT), "no distributed_type"),
        ("missing-ce", acc_config(fsdp(1), compute_environment=ABSENT), "no compute_environment"),
        ("missing-nproc", acc_config(fsdp(1), num_processes=ABSENT), "no num_processes"),
        ("nproc-minus1", acc_config(fsdp(1), num_processes=-1), "num_processes -1"),
        ("missing-mp", acc_config(fsdp(1), mixed_precision=ABSENT), "no mixed_precision"),
        ("mp-invalid", acc_config(fsdp(1), mixed_precision="fp32"), "mixed_precision fp32"),
        ("mp-upper", acc_config(fsdp(1), mixed_precision="BF16"), "mixed_precision BF16"),
        ("dt-lower", acc_config(fsdp(1), distributed_type="fsdp"), "distributed_type fsdp (lower case)"),
        ("dt-multigpu-with-fsdp-section", acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP"), distributed_type="MULTI_GPU"), "MULTI_GPU with an fsdp_config section"),
        ("dt-no-with-fsdp-section", acc_config(fsdp(1), distributed_type="NO", num_processes=1), "NO with an fsdp_config section"),
        ("dt-deepspeed-with-fsdp-section", acc_config(fsdp(1), distributed_type="DEEPSPEED", deepspeed_config={"zero_stage": 3}), "DEEPSPEED with an fsdp_config section"),
        ("gpu-ids-one-multigpu", acc_config(fsdp(1), distributed_type="MULTI_GPU", gpu_ids="0"), "gpu_ids '0' with MULTI_GPU"),
        ("same-network", acc_config(fsdp(1), same_network=True, enable_cpu_affinity=True), "store_true keys from YAML"),
        ("dynamo-bad", acc_config(fsdp(1), dynamo_config={"dynamo_backend": "TURBO"}), "unknown dynamo backend"),
        ("ignored-modules", acc_config(fsdp(2, fsdp_ignored_modules="lm_head")), "fsdp_ignored_modules"),
        ("ac-offload-v1", acc_config(fsdp(1, fsdp_activation_checkpointing=True, fsdp_activation_checkpointing_offload=True)), "AC offload (1.15.0 wheel only) under v1"),
        ("ac-offload-v2-noac", acc_config(fsdp(2, fsdp_activation_checkpointing_offload=True)), "AC offload without AC under v2"),
        ("ac-offload-v2", acc_config(fsdp(2, fsdp_activation_checkpointing=True, fsdp_activation_checkpointing_offload=True,
                                          fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP")), "AC offload with AC under v2"),
        ("fsdp-config-null", acc_config(ABSENT), "distributed_type FSDP and no fsdp_config at all"),
    ]
    for name, cfg, desc in specs:
        out.append(case(f"key-{name}", "keys", desc, config=cfg))
    return out


YAML_HEAD = """compute_environment: LOCAL_MACHINE
distributed_type: FSDP
machine_rank: 0
num_machines: 1
num_processes: 2
"""


def group_yaml_traps():
    """Raw YAML text, typed by PyYAML (YAML 1.1)."""
    out = []
    specs = [
        ("mp-no", YAML_HEAD + "mixed_precision: no\nfsdp_config:\n  fsdp_version: 2\n", "unquoted mixed_precision: no"),
        ("mp-NO", YAML_HEAD + "mixed_precision: NO\nfsdp_config:\n  fsdp_version: 2\n", "unquoted mixed_precision: NO"),
        ("mp-off", YAML_HEAD + "mixed_precision: off\nfsdp_config:\n  fsdp_version: 2\n", "unquoted mixed_precision: off"),
        ("mp-quoted-no", YAML_HEAD + "mixed_precision: 'no'\nfsdp_config:\n  fsdp_version: 2\n", "quoted 'no'"),
        ("dt-fsdp", YAML_HEAD.replace("distributed_type: FSDP", "distributed_type: fsdp") + "mixed_precision: bf16\n", "distributed_type: fsdp"),
        ("dt-NO", YAML_HEAD.replace("distributed_type: FSDP", "distributed_type: NO").replace("num_processes: 2", "num_processes: 1")
         + "mixed_precision: 'no'\n", "unquoted distributed_type: NO"),
        ("dt-no-lower", YAML_HEAD.replace("distributed_type: FSDP", "distributed_type: no").replace("num_processes: 2", "num_processes: 1")
         + "mixed_precision: 'no'\n", "unquoted distributed_type: no"),
        ("minp-1e8-size", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_auto_wrap_policy: SIZE_BASED_WRAP\n  fsdp_min_num_params: 1e8\n", "fsdp_min_num_params: 1e8 (a string) with SIZE_BASED_WRAP"),
        ("minp-1.0e8-size", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_auto_wrap_policy: SIZE_BASED_WRAP\n  fsdp_min_num_params: 1.0e+8\n", "fsdp_min_num_params: 1.0e+8 (a float) with SIZE_BASED_WRAP"),
        ("minp-1e8-nowrap", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_min_num_params: 1e8\n", "fsdp_min_num_params: 1e8 without SIZE_BASED_WRAP"),
        ("minp-underscore", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_auto_wrap_policy: SIZE_BASED_WRAP\n  fsdp_min_num_params: 1_000_000\n", "fsdp_min_num_params: 1_000_000 (YAML 1.1 int)"),
        ("ac-yes", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_version: 2\n  fsdp_activation_checkpointing: yes\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n", "unquoted yes (bool)"),
        ("raf-off-v2", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_version: 2\n  fsdp_reshard_after_forward: off\n", "unquoted off (bool False) for v2 reshard"),
        ("raf-no-v1", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_version: 1\n  fsdp_reshard_after_forward: no\n", "unquoted no for v1 reshard"),
        ("ss-NO_SHARD", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_sharding_strategy: NO_SHARD\n", "NO_SHARD stays a string"),
        ("sync-no", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_sync_module_states: no\n  fsdp_cpu_ram_efficient_loading: no\n", "unquoted no for sync/cre (bools)"),
        ("version-2.0", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_version: 2.0\n", "fsdp_version: 2.0 (float)"),
        ("downcast-no", YAML_HEAD + "mixed_precision: bf16\ndowncast_bf16: no\nfsdp_config:\n  fsdp_version: 2\n", "downcast_bf16: no (generated configs quote it)"),
        ("flow-hybrid-zero2", "{compute_environment: LOCAL_MACHINE, distributed_type: FSDP, mixed_precision: bf16, num_machines: 1, "
         "num_processes: 2, fsdp_config: {fsdp_version: 1, fsdp_sharding_strategy: HYBRID_SHARD_ZERO2}}\n", "flow mapping, HYBRID_SHARD_ZERO2"),
        ("dup-key", YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n  fsdp_sharding_strategy: NO_SHARD\n", "duplicate key (last wins)"),
    ]
    for name, text, desc in specs:
        out.append(case(f"yaml-{name}", "yaml_traps", desc, config_text=text))
    # JSON config files.
    json_specs = [
        ("v2", acc_config(fsdp(2, fsdp_reshard_after_forward=False)), "JSON v2, reshard false"),
        ("minp-1e8", acc_config(fsdp(1, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=1e8)), "JSON 1e8 is a float"),
        ("hybrid-zero2", acc_config(fsdp(1, fsdp_sharding_strategy="HYBRID_SHARD_ZERO2")), "JSON HYBRID_SHARD_ZERO2"),
        ("sync-false", acc_config(fsdp(1, fsdp_sync_module_states=False)), "JSON sync false (cre default true)"),
        ("unknown-key", acc_config(fsdp(1), num_process=2), "JSON unknown top-level key"),
    ]
    for name, cfg, desc in json_specs:
        out.append(case(f"json-{name}", "yaml_traps", desc, config=cfg, config_format="json"))
    return out


def group_python_plugin():
    """FullyShardedDataParallelPlugin(**kwargs) built in the script, under the launcher or alone."""
    yaml_v1 = acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP", fsdp_state_dict_type="SHARDED_STATE_DICT",
                              fsdp_activation_checkpointing=True))
    out = []
    specs = [
        ("launch-ss", yaml_v1, {"sharding_strategy": "NO_SHARD"}, "script sharding_strategy over YAML"),
        ("launch-v2", yaml_v1, {"fsdp_version": 2}, "script fsdp_version 2 over v1 YAML"),
        ("launch-raf-false-v1", yaml_v1, {"reshard_after_forward": False}, "bool reshard under v1"),
        ("launch-raf-str-v1", yaml_v1, {"reshard_after_forward": "NO_SHARD"}, "v1 reshard name from the script, YAML strategy set"),
        ("launch-v2-ss", yaml_v1, {"fsdp_version": 2, "sharding_strategy": "SHARD_GRAD_OP"}, "v2 + sharding_strategy"),
        ("launch-v2-fwd", yaml_v1, {"fsdp_version": 2, "forward_prefetch": False}, "v2 + forward_prefetch=False"),
        ("launch-v2-raf-name", yaml_v1, {"fsdp_version": 2, "reshard_after_forward": "SHARD_GRAD_OP"}, "v2 + reshard name"),
        ("launch-sd-full", yaml_v1, {"state_dict_type": "FULL_STATE_DICT"}, "script state_dict_type over YAML"),
        ("alone-defaults", None, {}, "plugin defaults, no launcher env"),
        ("alone-v2", None, {"fsdp_version": 2}, "v2 defaults, no launcher env"),
        ("alone-cre", None, {"cpu_ram_efficient_loading": True}, "v1 cpu_ram_efficient_loading without sync"),
        ("alone-size-1e8", None, {"auto_wrap_policy": "size_based_wrap", "min_num_params": "1e8"}, "min_num_params string"),
        ("alone-size-float", None, {"auto_wrap_policy": "SIZE_BASED_WRAP", "min_num_params": 1e8}, "min_num_params float"),
        ("alone-v2-local", None, {"fsdp_version": 2, "state_dict_type": "LOCAL_STATE_DICT"}, "v2 LOCAL_STATE_DICT"),
        ("alone-v2-bwd", None, {"fsdp_version": 2, "backward_prefetch": "BACKWARD_PRE", "use_orig_params": True, "sync_module_states": True}, "v2 obsolete fields"),
        ("alone-mp-str", None, {"mixed_precision_policy": "bf16"}, "mixed_precision_policy as a string"),
        ("alone-mp-bad", None, {"mixed_precision_policy": "int8"}, "invalid mixed_precision_policy string"),
        ("alone-v1-hybrid-zero2", None, {"sharding_strategy": "HYBRID_SHARD_ZERO2"}, "HYBRID_SHARD_ZERO2 from Python"),
    ]
    for name, cfg, kwargs, desc in specs:
        out.append(case(f"py-{name}", "python_plugin", desc, config=cfg, plugin_kwargs=kwargs))
    return out


def group_env():
    """Shell environment leaking into the launch, or the only source (torchrun / python)."""
    out = []
    yaml_sgo = acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP"))
    out.append(case("env-leak-awp", "env", "shell FSDP_AUTO_WRAP_POLICY / FSDP_TRANSFORMER_CLS_TO_WRAP leak through",
                    config=yaml_sgo, env={"FSDP_AUTO_WRAP_POLICY": "TRANSFORMER_BASED_WRAP", "FSDP_TRANSFORMER_CLS_TO_WRAP": "Block"}))
    out.append(case("env-overwritten-version", "env", "shell FSDP_VERSION=2 is overwritten by the launcher",
                    config=yaml_sgo, env={"FSDP_VERSION": "2"}))
    out.append(case("env-leak-bwd", "env", "shell FSDP_BACKWARD_PREFETCH leaks through",
                    config=yaml_sgo, env={"FSDP_BACKWARD_PREFETCH": "BACKWARD_POST"}))
    out.append(case("env-torchrun-v2", "env", "torchrun with env only: ACCELERATE_USE_FSDP + FSDP_VERSION=2",
                    env={"ACCELERATE_USE_FSDP": "true", "FSDP_VERSION": "2", "FSDP_RESHARD_AFTER_FORWARD": "false"}))
    out.append(case("env-torchrun-v1-raf", "env", "torchrun with env only: v1 FSDP_RESHARD_AFTER_FORWARD=SHARD_GRAD_OP, no strategy",
                    env={"ACCELERATE_USE_FSDP": "true", "FSDP_RESHARD_AFTER_FORWARD": "SHARD_GRAD_OP"}))
    out.append(case("env-torchrun-no-flag", "env", "FSDP_* env without ACCELERATE_USE_FSDP: FSDP off",
                    env={"FSDP_VERSION": "2"}))
    out.append(case("env-torchrun-use-fsdp-1", "env", "ACCELERATE_USE_FSDP=1",
                    env={"ACCELERATE_USE_FSDP": "1"}))
    return out


def group_trainer():
    """TrainingArguments(fsdp=..., fsdp_config=...) -> FullyShardedDataParallelPlugin(**fsdp_plugin_args)."""
    out = []
    fsdp_values = ["full_shard auto_wrap", "shard_grad_op", "hybrid_shard", "hybrid_shard_zero2", "no_shard", "offload",
                   "full_shard offload auto_wrap", True, "full_shard shard_grad_op", "bogus"]
    for version in [ABSENT, 1, 2]:
        for value in fsdp_values:
            cfg = {} if version is ABSENT else {"version": version}
            out.append(case(
                f"tr-v{slug(version)}-{slug(value)}", "trainer",
                f"TrainingArguments(fsdp={value!r}, fsdp_config={cfg})",
                training_args={"fsdp": value, "fsdp_config": cfg},
            ))
    specs = [
        ("raf-false-v2", {"fsdp": True, "fsdp_config": {"version": 2, "reshard_after_forward": False}}),
        ("raf-str-false-v2", {"fsdp": True, "fsdp_config": {"version": 2, "reshard_after_forward": "false"}}),
        ("raf-sgo-v2", {"fsdp": True, "fsdp_config": {"version": 2, "reshard_after_forward": "SHARD_GRAD_OP"}}),
        ("raf-maybe-v2", {"fsdp": True, "fsdp_config": {"reshard_after_forward": "maybe"}}),
        ("raf-sgo-v1", {"fsdp": True, "fsdp_config": {"version": 1, "reshard_after_forward": "SHARD_GRAD_OP"}}),
        ("prefixed-keys", {"fsdp": True, "fsdp_config": {"fsdp_version": 1, "fsdp_sharding_strategy": "SHARD_GRAD_OP",
                                                          "fsdp_offload_params": True}}),
        ("awp-lower", {"fsdp": True, "fsdp_config": {"auto_wrap_policy": "transformer_based_wrap"}}),
        ("awp-size-minp", {"fsdp": True, "fsdp_config": {"auto_wrap_policy": "SIZE_BASED_WRAP", "min_num_params": 1000}}),
        ("awp-size-minp-str", {"fsdp": True, "fsdp_config": {"auto_wrap_policy": "SIZE_BASED_WRAP", "min_num_params": "1e8"}}),
        ("awp-size-zero", {"fsdp": True, "fsdp_config": {"auto_wrap_policy": "SIZE_BASED_WRAP"}}),
        ("awp-no-wrap", {"fsdp": True, "fsdp_config": {"auto_wrap_policy": "NO_WRAP"}}),
        ("fwd-prefetch-v2", {"fsdp": True, "fsdp_config": {"version": 2, "forward_prefetch": True, "use_orig_params": False}}),
        ("bwd-prefetch-v1", {"fsdp": True, "fsdp_config": {"version": 1, "backward_prefetch": "backward_pre"}}),
        ("sd-local-v2", {"fsdp": True, "fsdp_config": {"state_dict_type": "LOCAL_STATE_DICT"}}),
        ("sd-sharded", {"fsdp": True, "fsdp_config": {"state_dict_type": "SHARDED_STATE_DICT"}}),
        ("ac-gc", {"fsdp": True, "fsdp_config": {"activation_checkpointing": True}, "gradient_checkpointing": True}),
        ("ac-yes", {"fsdp": True, "fsdp_config": {"activation_checkpointing": "yes"}}),
        ("ac-maybe", {"fsdp": True, "fsdp_config": {"activation_checkpointing": "maybe"}}),
        ("cre-true-v2", {"fsdp": True, "fsdp_config": {"cpu_ram_efficient_loading": True}}),
        ("cpu-offload", {"fsdp": True, "fsdp_config": {"cpu_offload": True}}),
        ("offload-params-key", {"fsdp": True, "fsdp_config": {"offload_params": True}}),
        ("fsdp-config-only", {"fsdp_config": {"version": 1, "reshard_after_forward": "shard_grad_op"}}),
        ("fsdp-empty-string", {"fsdp": "", "fsdp_config": {"version": 2}}),
        ("bf16", {"fsdp": True, "bf16": True}),
        ("fp16-bf16", {"fsdp": True, "bf16": True, "fp16": True}),
        ("list-fsdp", {"fsdp": ["full_shard", "auto_wrap"], "fsdp_config": {"version": 2}}),
    ]
    for name, ta in specs:
        out.append(case(f"tr-{name}", "trainer", f"TrainingArguments({ta})", training_args=ta))
    # Trainer under accelerate launch.
    yaml_t6 = acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP", fsdp_state_dict_type="SHARDED_STATE_DICT",
                              fsdp_activation_checkpointing=True, fsdp_cpu_ram_efficient_loading=True,
                              fsdp_auto_wrap_policy="NO_WRAP"))
    yaml_v2 = acc_config(fsdp(2, fsdp_reshard_after_forward=False, fsdp_state_dict_type="SHARDED_STATE_DICT",
                              fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=1000))
    launch_specs = [
        ("launch-v1yaml-fs-v1", yaml_t6, {"fsdp": "full_shard", "fsdp_config": {"version": 1}}),
        ("launch-v1yaml-fs-noversion", yaml_t6, {"fsdp": "full_shard"}),
        ("launch-v1yaml-true", yaml_t6, {"fsdp": True}),
        ("launch-v1yaml-none", yaml_t6, {}),
        ("launch-v1yaml-gc", yaml_t6, {"gradient_checkpointing": True}),
        ("launch-v2yaml-true", yaml_v2, {"fsdp": True}),
        ("launch-v2yaml-none", yaml_v2, {}),
        ("launch-v2yaml-sgo-v1", yaml_v2, {"fsdp": "shard_grad_op", "fsdp_config": {"version": 1}}),
        ("launch-multigpu-yaml-fsdp", acc_config(fsdp(1), distributed_type="MULTI_GPU"), {"fsdp": True}),
    ]
    for name, cfg, ta in launch_specs:
        out.append(case(f"tr-{name}", "trainer", f"accelerate launch (config) + TrainingArguments({ta})",
                        config=cfg, training_args=ta))
    return out


def group_prepare():
    """Accelerator().prepare / Trainer.train on a tiny model with world size 1 (needs the GPU)."""
    out = []
    tiny = {"kind": "tiny_blocks"}
    specs = [
        ("v2-ac-transformer-default-cls", acc_config(fsdp(2, fsdp_activation_checkpointing=True, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP")), tiny,
         "v2 AC + TRANSFORMER_BASED_WRAP with cls from _no_split_modules"),
        ("v2-ac-size-1000", acc_config(fsdp(2, fsdp_activation_checkpointing=True, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=1000)), tiny,
         "v2 AC + SIZE_BASED_WRAP min 1000"),
        ("v2-ac-size-0", acc_config(fsdp(2, fsdp_activation_checkpointing=True, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=0)), tiny,
         "v2 AC + SIZE_BASED_WRAP min 0"),
        ("v1-sgo-1proc", acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP", fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP")), tiny,
         "v1 SHARD_GRAD_OP at world size 1"),
        ("v1-size-0", acc_config(fsdp(1, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=0)), tiny,
         "v1 SIZE_BASED_WRAP min 0"),
        ("v1-size-1000", acc_config(fsdp(1, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=1000)), tiny,
         "v1 SIZE_BASED_WRAP min 1000 (control for the FSDP2 ModuleList case)"),
        ("v2-size-1000", acc_config(fsdp(2, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=1000)), tiny,
         "v2 SIZE_BASED_WRAP min 1000 without activation checkpointing"),
        ("v2-size-1000-llama", acc_config(fsdp(2, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=1000)),
         {"kind": "tiny_llama"}, "v2 SIZE_BASED_WRAP min 1000 on a tiny LlamaForCausalLM"),
        ("v2-nowrap", acc_config(fsdp(2, fsdp_auto_wrap_policy="NO_WRAP")), tiny,
         "v2 NO_WRAP without activation checkpointing (control)"),
    ]
    for name, cfg, model, desc in specs:
        out.append(case(f"prep-{name}", "prepare", desc, config=cfg, prepare=True, model=model))
    out.append(case("prep-env-use-fsdp-1", "prepare", "torchrun-style env only: ACCELERATE_USE_FSDP=1 (not 'true')",
                    env={"ACCELERATE_USE_FSDP": "1", "FSDP_VERSION": "2"}, prepare=True, model=tiny))
    trainer_specs = [
        ("tr-prep-v2-size", None, {"fsdp": True, "fsdp_config": {"auto_wrap_policy": "SIZE_BASED_WRAP", "min_num_params": 1000}},
         "Trainer: FSDP2 SIZE_BASED_WRAP min_num_params 1000"),
        ("tr-prep-ac-gc", None, {"fsdp": True, "fsdp_config": {"activation_checkpointing": True}, "gradient_checkpointing": True},
         "Trainer: fsdp_config AC + gradient_checkpointing"),
        ("tr-prep-yaml-ac-gc", acc_config(fsdp(2, fsdp_activation_checkpointing=True, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP")),
         {"gradient_checkpointing": True}, "Trainer: YAML AC + gradient_checkpointing, no Trainer fsdp"),
        ("tr-prep-v2-ok", None, {"fsdp": True, "bf16": True}, "Trainer: fsdp=True trains one step (control)"),
        ("tr-prep-v1-sgo", None, {"fsdp": "shard_grad_op", "fsdp_config": {"version": 1}}, "Trainer: FSDP1 shard_grad_op one step"),
    ]
    for name, cfg, ta, desc in trainer_specs:
        out.append(case(name, "prepare", desc, config=cfg, training_args=ta, prepare=True, model={"kind": "tiny_llama"}))
    # FSDP009's exception: the Trainer installs PEFT's wrap policy for a PEFT model under FSDP1, so
    # use_orig_params false with the decoder-layer policy trains; under an accelerate config the same.
    lora_llama = {"kind": "tiny_llama", "lora": True}
    out.append(case("tr-prep-v1-lora-uop-false", "prepare",
                    "Trainer: FSDP1 use_orig_params false + PEFT LoRA + TRANSFORMER_BASED_WRAP (Trainer installs PEFT's policy)",
                    training_args={"fsdp": "full_shard", "fsdp_config": {"version": 1, "use_orig_params": False,
                                                                         "transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"]}},
                    prepare=True, model=lora_llama))
    out.append(case("tr-prep-yaml-v1-lora-uop-false", "prepare",
                    "Trainer under an accelerate FSDP1 config: use_orig_params false + PEFT LoRA + TRANSFORMER_BASED_WRAP",
                    config=acc_config(fsdp(1, fsdp_use_orig_params=False, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
                                           fsdp_transformer_layer_cls_to_wrap="LlamaDecoderLayer")),
                    training_args={}, prepare=True, model=lora_llama))
    return out


# --------------------------------------------------------------------------------------------------
# Named probes: behaviour recorded before the oracle existed, re-checked by compare_probes.py
# --------------------------------------------------------------------------------------------------

def group_probes_p1():
    ref = "probe p1 "
    sgo_v1 = acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP"))
    out = [
        case("p1-A", "probes", "v1 + fsdp_reshard_after_forward SHARD_GRAD_OP",
             config=acc_config(fsdp(1, fsdp_reshard_after_forward="SHARD_GRAD_OP")),
             recorded=kn(ref + "A", stage=None, launch_env__FSDP_SHARDING_STRATEGY="FULL_SHARD",
                          launch_env__FSDP_RESHARD_AFTER_FORWARD="shard_grad_op",
                          effective__fsdp__sharding_strategy="FULL_SHARD", plugin__reshard_after_forward=None)),
        case("p1-B", "probes", "fsdp_sharding_strategy SHARD_GRAD_OP", config=sgo_v1,
             recorded=kn(ref + "B", stage=None, effective__fsdp__sharding_strategy="SHARD_GRAD_OP")),
        case("p1-C", "probes", "B + --fsdp_sharding_strategy FULL_SHARD", config=sgo_v1,
             launch_flags=["--fsdp_sharding_strategy", "FULL_SHARD"],
             recorded=kn(ref + "C", stage=None, effective__fsdp__sharding_strategy="FULL_SHARD")),
        case("p1-C2", "probes", "B + --fsdp-sharding-strategy NO_SHARD", config=sgo_v1,
             launch_flags=["--fsdp-sharding-strategy", "NO_SHARD"],
             recorded=kn(ref + "C2", stage=None, effective__fsdp__sharding_strategy="NO_SHARD")),
        case("p1-D", "probes", "fsdp_sharding_strategy 2", config=acc_config(fsdp(1, fsdp_sharding_strategy=2)),
             recorded=kn(ref + "D", stage=None, effective__fsdp__sharding_strategy="SHARD_GRAD_OP")),
        case("p1-E", "probes", "fsdp_sharding_strategy shard_grad_op",
             config=acc_config(fsdp(1, fsdp_sharding_strategy="shard_grad_op")),
             recorded=kn(ref + "E", stage=None, effective__fsdp__sharding_strategy="SHARD_GRAD_OP")),
        case("p1-E2", "probes", "fsdp_sharding_strategy ZERO3", config=acc_config(fsdp(1, fsdp_sharding_strategy="ZERO3")),
             recorded=kn(ref + "E2", stage="plugin", error__type="KeyError")),
        case("p1-E3", "probes", "fsdp_sharding_strategy 6", config=acc_config(fsdp(1, fsdp_sharding_strategy=6)),
             recorded=kn(ref + "E3", stage="plugin", error__type="ValueError",
                          error__message_contains="6 is not a valid ShardingStrategy")),
        case("p1-E4", "probes", "both keys: strategy NO_SHARD, reshard SHARD_GRAD_OP",
             config=acc_config(fsdp(1, fsdp_sharding_strategy="NO_SHARD", fsdp_reshard_after_forward="SHARD_GRAD_OP")),
             recorded=kn(ref + "E4", stage=None, effective__fsdp__sharding_strategy="NO_SHARD")),
        case("p1-F", "probes", "v2 + fsdp_sharding_strategy SHARD_GRAD_OP",
             config=acc_config(fsdp(2, fsdp_sharding_strategy="SHARD_GRAD_OP")),
             recorded=kn(ref + "F", stage=None, effective__fsdp__reshard_after_forward=True)),
        case("p1-G", "probes", "v2 + fsdp_reshard_after_forward false",
             config=acc_config(fsdp(2, fsdp_reshard_after_forward=False)),
             recorded=kn(ref + "G", stage=None, effective__fsdp__reshard_after_forward=False)),
        case("p1-H", "probes", "v2 + fsdp_reshard_after_forward SHARD_GRAD_OP",
             config=acc_config(fsdp(2, fsdp_reshard_after_forward="SHARD_GRAD_OP")),
             recorded=kn(ref + "H", stage="plugin", error__type="ValueError",
                          error__message_contains="invalid truth value shard_grad_op")),
        case("p1-H2", "probes", "v1 + fsdp_reshard_after_forward false",
             config=acc_config(fsdp(1, fsdp_reshard_after_forward=False)),
             recorded=kn(ref + "H2", stage=None, effective__fsdp__sharding_strategy="FULL_SHARD")),
        case("p1-I", "probes", "fsdp_sync_module_states false alone",
             config=acc_config(fsdp(1, fsdp_sync_module_states=False)),
             recorded=kn(ref + "I", stage="env", error__type="ValueError",
                          error__message_contains="set `--fsdp_sync_module_states` to `True`")),
        case("p1-J", "probes", "sync false + cpu_ram_efficient_loading false",
             config=acc_config(fsdp(1, fsdp_sync_module_states=False, fsdp_cpu_ram_efficient_loading=False)),
             recorded=kn(ref + "J", stage=None, effective__fsdp__sync_module_states=False)),
        case("p1-J2", "probes", "CLI --fsdp_sync_module_states false --fsdp_cpu_ram_efficient_loading true",
             config=acc_config(fsdp(1)),
             launch_flags=["--fsdp_sync_module_states", "false", "--fsdp_cpu_ram_efficient_loading", "true"],
             recorded=kn(ref + "J2", stage=None, effective__fsdp__sync_module_states=True,
                          warnings_contains="sync_module_states cannot be False")),
        case("p1-K", "probes", "--multi_gpu + FSDP YAML", config=sgo_v1, launch_flags=["--multi_gpu"],
             recorded=kn(ref + "K", stage=None, launcher__args__use_fsdp=False, effective__fsdp__enabled=False,
                          launch_env__ACCELERATE_USE_FSDP=None)),
        case("p1-L", "probes", "typo fsdp_sharding_stratgy",
             config=acc_config(fsdp(1, fsdp_sharding_stratgy="SHARD_GRAD_OP")),
             recorded=kn(ref + "L", stage=None, effective__fsdp__sharding_strategy="FULL_SHARD")),
        case("p1-M", "probes", "top-level fsdp_sharding_strategy",
             config=acc_config(fsdp(1), fsdp_sharding_strategy="SHARD_GRAD_OP"),
             recorded=kn(ref + "M", stage="validate", error__type="ValueError", error__message_contains="unknown keys")),
        case("p1-N", "probes", "un-prefixed sharding_strategy / state_dict_type",
             config=acc_config({"fsdp_version": 1, "sharding_strategy": "SHARD_GRAD_OP", "state_dict_type": "SHARDED_STATE_DICT"}),
             recorded=kn(ref + "N", stage=None, effective__fsdp__sharding_strategy="SHARD_GRAD_OP",
                          effective__fsdp__state_dict_type="SHARDED_STATE_DICT")),
        case("p1-O", "probes", "fsdp_min_num_params: 1e8 (YAML) + SIZE_BASED_WRAP",
             config_text=YAML_HEAD + "mixed_precision: bf16\nfsdp_config:\n  fsdp_version: 1\n"
                         "  fsdp_auto_wrap_policy: SIZE_BASED_WRAP\n  fsdp_min_num_params: 1e8\n",
             recorded=kn(ref + "O", stage="plugin", error__type="ValueError",
                          error__message_contains="invalid literal for int()")),
        case("p1-O2", "probes", "fsdp_min_num_params integer + SIZE_BASED_WRAP",
             config=acc_config(fsdp(1, fsdp_auto_wrap_policy="SIZE_BASED_WRAP", fsdp_min_num_params=100000000)),
             recorded=kn(ref + "O2", stage=None, effective__fsdp__min_num_params=100000000)),
        case("p1-O3", "probes", "SIZE_BASED_WRAP, no fsdp_min_num_params",
             config=acc_config(fsdp(1, fsdp_auto_wrap_policy="SIZE_BASED_WRAP")),
             recorded=kn(ref + "O3", stage=None, effective__fsdp__min_num_params=100000000)),
        case("p1-P", "probes", "lower-case wrap policy + 'LlamaDecoderLayer,LlamaMLP'",
             config=acc_config(fsdp(1, fsdp_auto_wrap_policy="transformer_based_wrap",
                                    fsdp_transformer_layer_cls_to_wrap="LlamaDecoderLayer,LlamaMLP")),
             recorded=kn(ref + "P", stage=None, effective__fsdp__auto_wrap_policy="TRANSFORMER_BASED_WRAP",
                          effective__fsdp__transformer_cls_names_to_wrap=["LlamaDecoderLayer", "LlamaMLP"])),
        case("p1-P2", "probes", "fsdp_auto_wrap_policy TRANSFORMER",
             config=acc_config(fsdp(1, fsdp_auto_wrap_policy="TRANSFORMER")),
             recorded=kn(ref + "P2", stage="plugin", error__type="ValueError",
                          error__message_contains="Invalid auto wrap policy")),
        case("p1-Q", "probes", "removed fsdp_backward_prefetch_policy key",
             config=acc_config(fsdp(1, fsdp_backward_prefetch_policy="BACKWARD_PRE")),
             recorded=kn(ref + "Q", stage=None, effective__fsdp__backward_prefetch=None)),
        case("p1-Q-cli", "probes", "removed --fsdp_backward_prefetch_policy flag", config=acc_config(fsdp(1)),
             launch_flags=["--fsdp_backward_prefetch_policy", "BACKWARD_PRE"],
             recorded=kn(ref + "Q (CLI)", stage="parse", error__message_contains="unrecognized arguments")),
        case("p1-Q2", "probes", "fsdp_backward_prefetch backward_post",
             config=acc_config(fsdp(1, fsdp_backward_prefetch="backward_post")),
             recorded=kn(ref + "Q2", stage=None, effective__fsdp__backward_prefetch="BACKWARD_POST")),
        case("p1-R", "probes", "v2 + LOCAL_STATE_DICT",
             config=acc_config(fsdp(2, fsdp_state_dict_type="LOCAL_STATE_DICT")),
             recorded=kn(ref + "R", stage="plugin", error__type="ValueError",
                          error__message_contains="FSDP2 does not support LOCAL_STATE_DICT")),
        case("p1-S", "probes", "v2 + forward/backward prefetch, use_orig_params, sync_module_states",
             config=acc_config(fsdp(2, fsdp_forward_prefetch=True, fsdp_backward_prefetch="BACKWARD_PRE",
                                    fsdp_use_orig_params=True, fsdp_sync_module_states=True)),
             recorded=kn(ref + "S", stage=None, effective__fsdp__backward_prefetch=None,
                          effective__fsdp__forward_prefetch=None, effective__fsdp__use_orig_params=None,
                          effective__fsdp__sync_module_states=None,
                          warnings_contains="backward_prefetch is not supported in FSDP2")),
        case("p1-S2", "probes", "fsdp_version '2' (string)", config=acc_config(fsdp("2")),
             recorded=kn(ref + "S2", stage=None, effective__fsdp__version=2)),
        case("p1-S3", "probes", "fsdp_version 3", config=acc_config(fsdp(3)),
             recorded=kn(ref + "S3", stage="plugin", error__type="KeyError", error__message_contains="TRUE")),
        case("p1-T", "probes", "rdzv_backend c10d, downcast_bf16 true in YAML",
             config=acc_config(fsdp(1), rdzv_backend="c10d", downcast_bf16=True),
             recorded=kn(ref + "T", stage=None, launcher__args__rdzv_backend="static",
                          launcher__args__downcast_bf16=False)),
        case("p1-U", "probes", "--mixed_precision fp16 over YAML bf16", config=acc_config(fsdp(1)),
             launch_flags=["--mixed_precision", "fp16"],
             recorded=kn(ref + "U", stage=None, effective__mixed_precision="fp16")),
        case("p1-V", "probes", "no num_processes, distributed_type FSDP",
             config=acc_config(fsdp(1), num_processes=ABSENT),
             recorded=kn(ref + "V", stage="validate", error__type="ValueError",
                          error__message_contains="You need to manually pass in `--num_processes`")),
        case("p1-W", "probes", "shell FSDP_STATE_DICT_TYPE / FSDP_SHARDING_STRATEGY / FSDP_ACTIVATION_CHECKPOINTING + YAML SHARD_GRAD_OP",
             config=sgo_v1,
             env={"FSDP_STATE_DICT_TYPE": "LOCAL_STATE_DICT", "FSDP_SHARDING_STRATEGY": "NO_SHARD",
                  "FSDP_ACTIVATION_CHECKPOINTING": "true"},
             recorded=kn(ref + "W", stage=None, effective__fsdp__sharding_strategy="SHARD_GRAD_OP",
                          effective__fsdp__activation_checkpointing=False,
                          effective__fsdp__state_dict_type="LOCAL_STATE_DICT")),
    ]
    yaml_x = acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP", fsdp_state_dict_type="SHARDED_STATE_DICT",
                             fsdp_activation_checkpointing=True))
    out += [
        case("p1-X", "probes", "Python plugin sharding_strategy NO_SHARD over YAML (SHARD_GRAD_OP, SHARDED, AC)",
             config=yaml_x, plugin_kwargs={"sharding_strategy": "NO_SHARD"},
             recorded=kn(ref + "X", stage=None, effective__fsdp__sharding_strategy="NO_SHARD",
                          effective__fsdp__state_dict_type="SHARDED_STATE_DICT",
                          effective__fsdp__activation_checkpointing=True,
                          warnings_contains="sharding_strategy is deprecated")),
        case("p1-X2", "probes", "Python plugin fsdp_version=2 over v1 YAML", config=acc_config(fsdp(1)),
             plugin_kwargs={"fsdp_version": 2},
             recorded=kn(ref + "X2", stage=None, effective__fsdp__version=2, effective__fsdp__reshard_after_forward=True)),
        case("p1-X3", "probes", "Python plugin reshard_after_forward=False under v1", config=acc_config(fsdp(1)),
             plugin_kwargs={"reshard_after_forward": False},
             recorded=kn(ref + "X3", stage="plugin", error__type="ValueError",
                          error__message_contains="not supported with FSDP1")),
        case("p1-X4", "probes", "Python plugin v2 + sharding_strategy", config=acc_config(fsdp(1)),
             plugin_kwargs={"fsdp_version": 2, "sharding_strategy": "SHARD_GRAD_OP"},
             recorded=kn(ref + "X4", stage="plugin", error__type="ValueError",
                          error__message_contains="reshard_after_forward set to None")),
        case("p1-X5", "probes", "Python plugin v2 + forward_prefetch=False", config=acc_config(fsdp(1)),
             plugin_kwargs={"fsdp_version": 2, "forward_prefetch": False},
             recorded=kn(ref + "X5", stage="plugin", error__type="ValueError",
                          error__message_contains="forward_prefetch is not yet implemented in FSDP2")),
        case("p1-Y", "probes", "fsdp_activation_checkpointing 'yes'",
             config=acc_config(fsdp(1, fsdp_activation_checkpointing="yes")),
             recorded=kn(ref + "Y", stage=None, effective__fsdp__activation_checkpointing=True)),
        case("p1-Y2", "probes", "fsdp_activation_checkpointing 'maybe'",
             config=acc_config(fsdp(1, fsdp_activation_checkpointing="maybe")),
             recorded=kn(ref + "Y (maybe)", stage="plugin", error__type="ValueError",
                          error__message_contains="invalid truth value")),
        case("p1-Z", "probes", "--use_parallelism_config with a v1 YAML", config=acc_config(fsdp(1)),
             launch_flags=["--use_parallelism_config"],
             recorded=kn(ref + "Z", stage="validate", error__type="ValueError",
                          error__message_contains="You cannot use `--use_parallelism_config`")),
        case("p1-Z2", "probes", "legacy top-level dynamo_backend", config=acc_config(fsdp(1), dynamo_backend="NO"),
             recorded=kn(ref + "Z2", stage=None)),
        case("p1-Z3", "probes", "legacy fp16: true", config=acc_config(fsdp(1), mixed_precision=ABSENT, fp16=True),
             recorded=kn(ref + "Z3", stage=None, effective__mixed_precision="fp16")),
        case("p1-yaml-mp-no", "probes", "unquoted mixed_precision: no",
             config_text=YAML_HEAD + "mixed_precision: no\nfsdp_config:\n  fsdp_version: 1\n",
             recorded=kn(ref + "YAML mixed_precision: no", error__type="AttributeError",
                          error__message_contains="'bool' object has no attribute 'lower'")),
        case("p1-yaml-dt-fsdp", "probes", "distributed_type: fsdp",
             config_text=YAML_HEAD.replace("distributed_type: FSDP", "distributed_type: fsdp") + "mixed_precision: bf16\n",
             recorded=kn(ref + "YAML distributed_type: fsdp", stage="validate", error__type="ValueError",
                          error__message_contains="'fsdp' is not a valid DistributedType")),
        case("p1-yaml-dt-NO", "probes", "unquoted distributed_type: NO",
             config_text=YAML_HEAD.replace("distributed_type: FSDP", "distributed_type: NO").replace("num_processes: 2", "num_processes: 1")
             + "mixed_precision: 'no'\n",
             recorded=kn(ref + "YAML distributed_type: NO", stage=None, effective__fsdp__enabled=False,
                          launcher__path="simple")),
        case("p1-flow-hybrid-zero2", "probes", "flow-mapping YAML with HYBRID_SHARD_ZERO2",
             config_text="{compute_environment: LOCAL_MACHINE, distributed_type: FSDP, mixed_precision: bf16, "
                         "num_machines: 1, num_processes: 2, fsdp_config: {fsdp_version: 1, "
                         "fsdp_sharding_strategy: HYBRID_SHARD_ZERO2}}\n",
             recorded=kn(ref + "JSON-style flow mapping", stage=None,
                          effective__fsdp__sharding_strategy="HYBRID_SHARD_ZERO2",
                          plugin__sharding_strategy="_HYBRID_SHARD_ZERO2")),
    ]
    return out


def group_probes_p2():
    ref = "probe p2 "
    tiny = {"kind": "tiny_blocks"}
    frozen = {"kind": "tiny_blocks", "freeze": "partial"}
    lora = {"kind": "tiny_blocks", "lora": True}

    def c(cid, desc, fc, model, **expect):
        return case(cid, "probes", desc, config=acc_config(fc), prepare=True, model=model,
                    recorded=kn(ref + desc, **expect))

    return [
        c("p2-v2-ac-nowrap", "v2 + AC + NO_WRAP", fsdp(2, fsdp_activation_checkpointing=True, fsdp_auto_wrap_policy="NO_WRAP"),
          tiny, stage="prepare", error__type="TypeError", error__message_contains="'NoneType' object is not callable"),
        c("p2-v2-ac-nopolicy", "v2 + AC + no policy", fsdp(2, fsdp_activation_checkpointing=True),
          tiny, stage="prepare", error__type="TypeError", error__message_contains="'NoneType' object is not callable"),
        c("p2-v2-ac-transformer", "v2 + AC + TRANSFORMER_BASED_WRAP(cls=Block)",
          fsdp(2, fsdp_activation_checkpointing=True, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
               fsdp_transformer_layer_cls_to_wrap="Block"), tiny, stage=None),
        c("p2-v1-frozen-uop-false", "v1 use_orig_params false + frozen params + NO_WRAP",
          fsdp(1, fsdp_use_orig_params=False, fsdp_auto_wrap_policy="NO_WRAP"), frozen,
          stage="prepare", error__type="ValueError", error__message_contains="Must flatten tensors with uniform"),
        c("p2-v1-frozen-uop-true", "v1 use_orig_params true + frozen params + NO_WRAP",
          fsdp(1, fsdp_use_orig_params=True, fsdp_auto_wrap_policy="NO_WRAP"), frozen, stage=None),
        c("p2-v1-lora-uop-false", "v1 use_orig_params false + PEFT LoRA + TRANSFORMER_BASED_WRAP",
          fsdp(1, fsdp_use_orig_params=False, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
               fsdp_transformer_layer_cls_to_wrap="Block"), lora,
          stage="prepare", error__type="ValueError", error__message_contains="Must flatten tensors with uniform"),
        c("p2-v1-lora-uop-false-peftpolicy", "v1 use_orig_params false + PEFT LoRA + peft fsdp_auto_wrap_policy",
          fsdp(1, fsdp_use_orig_params=False, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
               fsdp_transformer_layer_cls_to_wrap="Block"), {**lora, "peft_auto_wrap_policy": True}, stage=None),
        # FSDP009 / FSDP010: the other wrap policies and use_orig_params true (fp32 and bf16 base).
        c("p2-v1-lora-uop-false-nowrap", "v1 use_orig_params false + PEFT LoRA + NO_WRAP",
          fsdp(1, fsdp_use_orig_params=False, fsdp_auto_wrap_policy="NO_WRAP"), lora,
          stage="prepare", error__type="ValueError", error__message_contains="Must flatten tensors with uniform"),
        c("p2-v1-lora-uop-true", "v1 use_orig_params true + PEFT LoRA + TRANSFORMER_BASED_WRAP",
          fsdp(1, fsdp_use_orig_params=True, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
               fsdp_transformer_layer_cls_to_wrap="Block"), lora, stage=None),
        c("p2-v1-lora-uop-true-bf16", "v1 use_orig_params true + PEFT LoRA on a bf16 base + TRANSFORMER_BASED_WRAP",
          fsdp(1, fsdp_use_orig_params=True, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
               fsdp_transformer_layer_cls_to_wrap="Block"), {**lora, "dtype": "bfloat16"},
          stage="prepare", error__type="ValueError", error__message_contains="Must flatten tensors with uniform dtype"),
        c("p2-v2-lora-transformer", "v2 + PEFT LoRA + TRANSFORMER_BASED_WRAP",
          fsdp(2, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP", fsdp_transformer_layer_cls_to_wrap="Block"), lora, stage=None),
        c("p2-v1-ac-nowrap", "v1 + AC + NO_WRAP", fsdp(1, fsdp_activation_checkpointing=True, fsdp_auto_wrap_policy="NO_WRAP"),
          tiny, stage=None),
        c("p2-v1-raf-sgo", "v1 fsdp_reshard_after_forward SHARD_GRAD_OP",
          fsdp(1, fsdp_reshard_after_forward="SHARD_GRAD_OP", fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP",
               fsdp_transformer_layer_cls_to_wrap="Block"), tiny,
          stage=None, effective__fsdp__sharding_strategy="FULL_SHARD"),
        c("p2-v2-notaclass", "v2 fsdp_transformer_layer_cls_to_wrap NotAClass",
          fsdp(2, fsdp_auto_wrap_policy="TRANSFORMER_BASED_WRAP", fsdp_transformer_layer_cls_to_wrap="NotAClass"), tiny,
          stage="prepare", error__type="ValueError",
          error__message_contains="Could not find the transformer layer class NotAClass in the model."),
    ]


def group_probes_p3():
    ref = "probe p3 "
    yaml_t6 = acc_config(fsdp(1, fsdp_sharding_strategy="SHARD_GRAD_OP", fsdp_state_dict_type="SHARDED_STATE_DICT",
                              fsdp_activation_checkpointing=True, fsdp_cpu_ram_efficient_loading=True))

    def t(cid, desc, ta, config=None, **expect):
        return case(cid, "probes", desc, config=config, training_args=ta, recorded=kn(ref + cid[3:], **expect))

    return [
        t("p3-T1", "fsdp='full_shard auto_wrap'", {"fsdp": "full_shard auto_wrap"},
          stage=None, effective__fsdp__version=2, effective__fsdp__reshard_after_forward=True,
          effective__fsdp__state_dict_type="FULL_STATE_DICT", effective__fsdp__cpu_ram_efficient_loading=False,
          warnings_contains="Passing `fsdp` as a string is deprecated"),
        t("p3-T2", "fsdp='full_shard auto_wrap' + version 1", {"fsdp": "full_shard auto_wrap", "fsdp_config": {"version": 1}},
          stage=None, effective__fsdp__version=1, effective__fsdp__sharding_strategy="FULL_SHARD",
          effective__fsdp__use_orig_params=True, effective__fsdp__sync_module_states=True,
          warnings_contains="FSDP1 (`fsdp_config['version'] = 1`) is deprecated"),
        t("p3-T3", "fsdp='full_shard auto_wrap' + version 2", {"fsdp": "full_shard auto_wrap", "fsdp_config": {"version": 2}},
          stage=None, effective__fsdp__version=2, effective__fsdp__reshard_after_forward=True),
        t("p3-T4", "fsdp='shard_grad_op' + version 1", {"fsdp": "shard_grad_op", "fsdp_config": {"version": 1}},
          stage=None, plugin__reshard_after_forward="SHARD_GRAD_OP", effective__fsdp__sharding_strategy="FULL_SHARD"),
        t("p3-T5", "fsdp_config {fsdp_version: 2, fsdp_reshard_after_forward: False}",
          {"fsdp": "full_shard auto_wrap", "fsdp_config": {"fsdp_version": 2, "fsdp_reshard_after_forward": False}},
          stage=None, effective__fsdp__reshard_after_forward=False),
        t("p3-T6", "Trainer fsdp='full_shard' v1 under launcher YAML (SHARD_GRAD_OP, SHARDED, AC, cpu_ram)",
          {"fsdp": "full_shard", "fsdp_config": {"version": 1}}, config=yaml_t6,
          stage=None, effective__fsdp__sharding_strategy="SHARD_GRAD_OP",
          effective__fsdp__state_dict_type="FULL_STATE_DICT", effective__fsdp__cpu_ram_efficient_loading=False,
          effective__fsdp__activation_checkpointing=True),
        t("p3-T7", "no Trainer fsdp under the same launcher YAML", {}, config=yaml_t6,
          stage=None, effective__fsdp__sharding_strategy="SHARD_GRAD_OP",
          effective__fsdp__state_dict_type="SHARDED_STATE_DICT", effective__fsdp__activation_checkpointing=True,
          effective__fsdp__cpu_ram_efficient_loading=True),
        t("p3-T8", "fsdp + gradient_checkpointing=True", {"fsdp": "full_shard auto_wrap", "gradient_checkpointing": True},
          stage=None, warnings_contains="prefer `activation_checkpointing`"),
        t("p3-T9", "fsdp='offload' alone", {"fsdp": "offload"}, stage=None, effective__fsdp__offload_params=True),
        t("p3-T10", "fsdp='full_shard shard_grad_op'", {"fsdp": "full_shard shard_grad_op"},
          stage=None, effective__fsdp__reshard_after_forward=True),
        t("p3-T11", "min_num_params + transformer_layer_cls_to_wrap",
          {"fsdp": "full_shard auto_wrap", "fsdp_config": {"min_num_params": 1000, "transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"]}},
          stage=None),
        t("p3-T12", "sync_module_states false + cpu_ram_efficient_loading true (v1)",
          {"fsdp": "full_shard auto_wrap", "fsdp_config": {"version": 1, "sync_module_states": False, "cpu_ram_efficient_loading": True}},
          stage=None, effective__fsdp__sync_module_states=True, warnings_contains="sync_module_states cannot be False"),
        t("p3-T13", "fsdp=True", {"fsdp": True},
          stage=None, effective__fsdp__version=2, effective__fsdp__reshard_after_forward=True,
          effective__fsdp__state_dict_type="FULL_STATE_DICT", effective__fsdp__auto_wrap_policy="TRANSFORMER_BASED_WRAP",
          effective__fsdp__cpu_ram_efficient_loading=False),
        t("p3-T14", "activation_checkpointing in fsdp_config", {"fsdp": True, "fsdp_config": {"activation_checkpointing": True}},
          stage=None, effective__fsdp__activation_checkpointing=True),
    ]


GROUPS = [
    group_probes_p1, group_probes_p2, group_probes_p3,
    group_sharding_strategy, group_reshard_after_forward, group_cli, group_booleans, group_sync_cre,
    group_wrap, group_state_dict_and_prefetch, group_keys, group_yaml_traps, group_python_plugin, group_env,
    group_trainer, group_prepare,
]


def build_cases():
    cases = []
    for group in GROUPS:
        cases.extend(group())
    ids = [c["id"] for c in cases]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise SystemExit(f"duplicate case ids: {dupes}")
    for c in cases:
        if not re.fullmatch(r"[A-Za-z0-9_.\-]+", c["id"]):
            raise SystemExit(f"bad case id: {c['id']!r}")
    return cases


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).with_name("cases.json")))
    args = parser.parse_args(argv)
    cases = build_cases()
    doc = {
        "format": "launchlint-oracle-cases/1",
        "generated_by": "tools/oracle/generate_cases.py",
        "count": len(cases),
        "cases": cases,
    }
    Path(args.out).write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
