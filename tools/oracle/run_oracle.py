#!/usr/bin/env python3
"""Ground-truth oracle: run launch descriptions through the real accelerate / transformers / torch code.

For every case of ``cases.json`` (see ``generate_cases.py`` and ``README.md``) a fresh Python
subprocess replays what ``accelerate launch`` and the training script would do, without training:

  parse          accelerate's ``launch_command_parser().parse_args([--config_file F, *flags, train.py])``
  validate       ``accelerate.commands.launch._validate_launch_command(args)`` (loads the config file)
  env            the launcher's environment for the child: ``prepare_multi_gpu_env`` (FSDP, multi-GPU,
                 Megatron), ``prepare_deepspeed_cmd_env`` (DeepSpeed) or ``prepare_simple_launcher_cmd_env``,
                 chosen exactly as ``launch_command`` chooses its launcher
  training_args  ``TrainingArguments(output_dir=tmp, **training_args)`` in that environment
  plugin         ``FullyShardedDataParallelPlugin(**kwargs)`` where kwargs are the case's
                 ``plugin_kwargs``, or ``TrainingArguments.fsdp_plugin_args`` (what the Trainer passes), or
                 nothing when the environment says ``ACCELERATE_USE_FSDP`` (what ``Accelerator()`` does)
  trainer        (prepare cases with training_args) ``Trainer(model, args, train_dataset)``
  prepare        (prepare cases) world size 1 on the GPU: ``Accelerator(fsdp_plugin=...)`` +
                 ``prepare(model, optimizer)`` + one optimizer step, or ``Trainer.train()`` for one step

It records the effective FSDP settings, the stage and exception where it failed, and every warning
(``logging`` and ``warnings``). Nothing is downloaded: the models are built locally.

Usage (on a machine with a GPU and the library versions to describe):
    python3 tools/oracle/run_oracle.py --cases tools/oracle/cases.json --out tools/oracle/results.json
Options: --jobs N (parallel subprocesses), --only ID[,ID...] / --group G, --timeout S.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import datetime
import io
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

RESULT_FORMAT = "launchlint-oracle-results/1"
STAGES = ["parse", "validate", "env", "training_args", "plugin", "trainer", "prepare"]

# Environment variables removed from the parent environment before a case runs, so that nothing
# from the machine leaks in; a case adds its own through `env`.
SCRUB_PREFIXES = ("FSDP_", "ACCELERATE_", "PARALLELISM_CONFIG_", "MEGATRON_LM_", "TORCHELASTIC_")
SCRUB_NAMES = ("RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT",
               "GROUP_RANK", "ROLE_RANK", "PYTHONWARNINGS")

# Launcher args recorded in the result (plus every fsdp_* attribute).
LAUNCHER_ARG_KEYS = ("use_fsdp", "multi_gpu", "use_deepspeed", "use_megatron_lm", "tpu", "cpu", "use_cpu",
                     "num_processes", "num_machines", "machine_rank", "mixed_precision", "gpu_ids",
                     "rdzv_backend", "same_network", "enable_cpu_affinity", "downcast_bf16", "dynamo_backend",
                     "use_parallelism_config", "debug", "main_process_port")

# Extra TrainingArguments for cases that really train through the Trainer (case values win).
TRAINER_RUN_DEFAULTS = {"max_steps": 1, "per_device_train_batch_size": 2, "save_strategy": "no",
                        "logging_strategy": "no", "disable_tqdm": True, "remove_unused_columns": False,
                        "dataloader_num_workers": 0}

HIDDEN = 32  # width of the tiny models

# `warnings` categories kept only when they come from these packages.
NOISE_CATEGORIES = (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning)
RELEVANT_PACKAGES = ("accelerate/", "transformers/", "peft/", "torch/distributed/")


# ==================================================================================================
# Child side: one case, in its own process
# ==================================================================================================

class CaseRecorder:
    """Collects the stage, warnings and partial results of one case."""

    def __init__(self):
        self.stage = None
        self.warnings = []
        self.result = {}

    def add_warning(self, source, name, message):
        text = str(message).strip()
        entry = {"stage": self.stage, "source": source, "name": name, "message": text[:2000]}
        if entry not in self.warnings:
            self.warnings.append(entry)


def _install_warning_capture(rec: CaseRecorder):
    import logging
    import warnings

    class _Handler(logging.Handler):
        def emit(self, record):
            try:
                rec.add_warning("logging", record.name, record.getMessage())
            except Exception:  # noqa: BLE001 - a broken log record must not kill the case
                pass

    handler = _Handler(level=logging.WARNING)
    logging.getLogger().addHandler(handler)
    logging.getLogger().setLevel(logging.WARNING)
    # transformers' library logger does not propagate to the root logger.
    logging.getLogger("transformers").addHandler(handler)

    def _showwarning(message, category, filename, lineno, file=None, line=None):
        where = _short_path(filename)
        if issubclass(category, NOISE_CATEGORIES) and not where.startswith(RELEVANT_PACKAGES):
            return  # import-time deprecation noise from unrelated packages
        rec.add_warning("warnings", f"{category.__name__}@{where}:{lineno}", message)

    warnings.simplefilter("always")
    warnings.showwarning = _showwarning


def _short_path(path: str) -> str:
    """Path relative to site-packages (``accelerate/utils/dataclasses.py``) when possible."""
    path = str(path)
    for marker in ("site-packages/", "dist-packages/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return path


def _error_record(exc: BaseException, stderr_text: str = "") -> dict:
    """type, first message line, and the innermost library frame that raised."""
    if isinstance(exc, SystemExit):
        # argparse reports through parser.error() -> exit(2); the message went to stderr.
        lines = [ln for ln in stderr_text.splitlines() if "error:" in ln]
        message = lines[-1].split("error:", 1)[1].strip() if lines else f"exit status {exc.code}"
        return {"type": "SystemExit", "message": message, "where": "argparse", "exit_code": exc.code}
    text = str(exc)
    first = text.splitlines()[0] if text else ""
    where = None
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        short = _short_path(frame.filename)
        if short != frame.filename:
            where = f"{short}:{frame.lineno}"
            break
    return {"type": type(exc).__name__, "message": first[:2000], "where": where}


def _json_safe(value, depth=0):
    import enum

    if depth > 4:
        return repr(value)[:200]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
        if isinstance(value, (set, frozenset)):
            items = sorted(items, key=repr)
        return [_json_safe(v, depth + 1) for v in items]
    if isinstance(value, dict):
        return {str(k): _json_safe(v, depth + 1) for k, v in value.items()}
    if callable(value):
        return "<callable " + getattr(value, "__qualname__", getattr(getattr(value, "func", None), "__qualname__", type(value).__name__)) + ">"
    return repr(value)[:200]


def _enum_name(value):
    """Enum member name with torch's private underscore dropped (_HYBRID_SHARD_ZERO2 -> HYBRID_SHARD_ZERO2)."""
    import enum

    if value is None:
        return None
    if isinstance(value, enum.Enum):
        return value.name.lstrip("_")
    return str(value)


def _wrap_policy_name(policy):
    import functools

    if policy is None:
        return "NO_WRAP"
    if isinstance(policy, str):
        return policy.upper()
    from torch.distributed.fsdp.wrap import size_based_auto_wrap_policy, transformer_auto_wrap_policy

    func = policy.func if isinstance(policy, functools.partial) else policy
    if func is transformer_auto_wrap_policy:
        return "TRANSFORMER_BASED_WRAP"
    if func is size_based_auto_wrap_policy:
        return "SIZE_BASED_WRAP"
    return "CUSTOM:" + getattr(func, "__qualname__", type(func).__name__)


def _plugin_fields(plugin) -> dict:
    """Every dataclass field of the plugin, JSON-safe (enums by their raw member name, e.g. _HYBRID_SHARD_ZERO2)."""
    import dataclasses

    out = {}
    for f in dataclasses.fields(plugin):
        value = getattr(plugin, f.name, None)
        if f.name == "auto_wrap_policy":
            out[f.name] = _wrap_policy_name(value)
        else:
            out[f.name] = _json_safe(value)
    return out


def _effective_fsdp(plugin) -> dict:
    """The settings the training process ends up with, read from the constructed plugin."""
    version = plugin.fsdp_version
    if version == 1:
        # accelerator.py wraps FSDP1 with `sharding_strategy or reshard_after_forward`.
        strategy = plugin.sharding_strategy or plugin.reshard_after_forward
        strategy = _enum_name(strategy)
        reshard = None
    else:
        strategy = None
        reshard = plugin.reshard_after_forward
    offload = None
    cpu_offload = getattr(plugin, "cpu_offload", None)
    if cpu_offload is not None:
        if hasattr(cpu_offload, "offload_params"):
            offload = bool(cpu_offload.offload_params)
        else:
            try:
                from torch.distributed.fsdp import CPUOffloadPolicy
                offload = isinstance(cpu_offload, CPUOffloadPolicy)
            except ImportError:
                offload = type(cpu_offload).__name__
    mpp = getattr(plugin, "mixed_precision_policy", None)
    return {
        "enabled": True,
        "version": version,
        "sharding_strategy": strategy,
        "reshard_after_forward": reshard,
        "activation_checkpointing": plugin.activation_checkpointing,
        "auto_wrap_policy": _wrap_policy_name(plugin.auto_wrap_policy),
        "transformer_cls_names_to_wrap": _json_safe(plugin.transformer_cls_names_to_wrap),
        "min_num_params": plugin.min_num_params,
        "cpu_ram_efficient_loading": plugin.cpu_ram_efficient_loading,
        "sync_module_states": plugin.sync_module_states,
        "use_orig_params": plugin.use_orig_params,
        "offload_params": offload,
        "backward_prefetch": _enum_name(plugin.backward_prefetch),
        "forward_prefetch": plugin.forward_prefetch,
        "state_dict_type": _enum_name(plugin.state_dict_type),
        "ignored_modules": _json_safe(getattr(plugin, "ignored_modules", None)),
        "mixed_precision_policy": None if mpp is None else repr(mpp)[:300],
    }


FSDP_DISABLED = {"enabled": False}


def _write_config_file(case, tmpdir) -> tuple[str | None, str | None]:
    """Writes the case's config file; returns (path, exact text)."""
    if case.get("config_text") is not None:
        text = case["config_text"]
        suffix = ".json" if case.get("config_format") == "json" else ".yaml"
    elif case.get("config") is not None:
        if case.get("config_format") == "json":
            text = json.dumps(case["config"], indent=2) + "\n"
            suffix = ".json"
        else:
            import yaml

            text = yaml.safe_dump(case["config"], sort_keys=False, default_flow_style=False)
            suffix = ".yaml"
    else:
        return None, None
    path = os.path.join(tmpdir, "accelerate_config" + suffix)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path, text


def _launcher(case, rec, tmpdir):
    """parse -> validate -> env. Returns the child environment, or raises."""
    rec.stage = "parse"
    from accelerate.commands.launch import _validate_launch_command, launch_command_parser

    config_path, config_text = _write_config_file(case, tmpdir)
    rec.result["config_file_text"] = config_text
    argv = []
    if config_path is not None:
        argv += ["--config_file", config_path]
    argv += list(case.get("launch_flags") or []) + ["train.py"]
    rec.result["launcher"] = {"argv": ["accelerate", "launch"] + [("<config>" if a == config_path else a) for a in argv]}

    rec.stage = "parse"
    parser = launch_command_parser()
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            args = parser.parse_args(argv)
    except SystemExit as exc:
        exc.__oracle_stderr__ = err.getvalue()
        raise

    rec.stage = "validate"
    validated = _validate_launch_command(args)
    if isinstance(validated, tuple):
        args, defaults = validated[0], validated[1]
        mp_from_config = validated[2] if len(validated) > 2 else False
    else:  # older accelerate returned only args
        args, defaults, mp_from_config = validated, None, False
    launcher_args = {k: _json_safe(getattr(args, k, None)) for k in LAUNCHER_ARG_KEYS}
    for key in sorted(vars(args)):
        if key.startswith("fsdp_"):
            launcher_args[key] = _json_safe(getattr(args, key))
    rec.result["launcher"]["args"] = launcher_args
    rec.result["launcher"]["nondefault"] = sorted(getattr(args, "nondefault", set()))

    rec.stage = "env"
    from accelerate.utils import launch as launch_utils

    if args.use_deepspeed and not args.cpu:
        path = "deepspeed"
        args.deepspeed_fields_from_accelerate_config = list(defaults.deepspeed_config.keys()) if defaults else []
        if mp_from_config:
            args.deepspeed_fields_from_accelerate_config.append("mixed_precision")
        args.deepspeed_fields_from_accelerate_config = ",".join(args.deepspeed_fields_from_accelerate_config)
        from accelerate.utils import is_deepspeed_available

        rec.result["launcher"]["deepspeed_installed"] = bool(is_deepspeed_available())
        _, env = launch_utils.prepare_deepspeed_cmd_env(args)
    elif (args.use_fsdp or args.use_megatron_lm or args.multi_gpu) and not args.cpu:
        path = "multi_gpu"
        env = launch_utils.prepare_multi_gpu_env(args)
    elif args.tpu and not args.cpu:
        raise NotImplementedError("oracle: the TPU launcher is not modelled")
    else:
        path = "simple"
        _, env = launch_utils.prepare_simple_launcher_cmd_env(args)
    rec.result["launcher"]["path"] = path
    rec.result["launcher"]["distributed_type"] = (
        "DEEPSPEED" if path == "deepspeed" else
        "FSDP" if args.use_fsdp else
        "MEGATRON_LM" if args.use_megatron_lm else
        "MULTI_GPU" if args.multi_gpu else
        "NO"
    )
    rec.result["num_processes"] = _json_safe(args.num_processes)
    return env


def _selected_env(env) -> dict:
    return {k: env[k] for k in sorted(env) if k.startswith(("FSDP_", "ACCELERATE_", "PARALLELISM_CONFIG_"))}


def _set_process_env(env: dict):
    os.environ.clear()
    os.environ.update(env)


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _build_model(spec):
    """A tiny model, built locally (no downloads)."""
    import torch
    from torch import nn

    spec = spec or {}
    kind = spec.get("kind", "tiny_blocks")
    torch.manual_seed(0)
    if kind == "tiny_llama":
        from transformers import LlamaConfig, LlamaForCausalLM

        cfg = LlamaConfig(vocab_size=128, hidden_size=HIDDEN, intermediate_size=64, num_hidden_layers=2,
                          num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=64)
        return _adapt_model(LlamaForCausalLM(cfg), spec, ["q_proj", "v_proj"])

    class Block(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.fc1 = nn.Linear(d, d)
            self.fc2 = nn.Linear(d, d)

        def forward(self, x):
            return x + self.fc2(torch.relu(self.fc1(x)))

    class TinyModel(nn.Module):
        _no_split_modules = ["Block"]

        def __init__(self, d=HIDDEN, n=2):
            super().__init__()
            self.inp = nn.Linear(d, d)
            self.blocks = nn.ModuleList([Block(d) for _ in range(n)])
            self.head = nn.Linear(d, 1)

        def forward(self, x=None, labels=None):
            h = self.inp(x)
            for block in self.blocks:
                h = block(h)
            out = self.head(h).squeeze(-1)
            loss = ((out.float() - labels.float()) ** 2).mean() if labels is not None else None
            return {"loss": loss, "logits": out}

    model = TinyModel()
    return _adapt_model(model, spec, ["fc1", "fc2"])


def _adapt_model(model, spec, lora_targets):
    """The model spec's dtype (`dtype: bfloat16`: the base cast before PEFT, whose adapters stay float32 by
    default), frozen parameters and PEFT LoRA."""
    import torch

    if spec.get("dtype"):
        model = model.to(getattr(torch, spec["dtype"]))
    if spec.get("freeze") == "partial":
        # frozen and trainable parameters inside one module: the input layer and every fc1 are frozen
        for name, p in model.named_parameters():
            if name.startswith("inp.") or ".fc1." in name:
                p.requires_grad_(False)
    if spec.get("lora"):
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules=lora_targets))
    return model


def _describe_prepared(model, accelerator) -> dict:
    info = {"distributed_type": str(accelerator.distributed_type).split(".")[-1],
            "model_class": type(model).__name__}
    try:
        from torch.distributed.fsdp import FullyShardedDataParallel as FSDP1

        units = [m for m in model.modules() if isinstance(m, FSDP1)]
        if units:
            info["fsdp1_units"] = len(units)
            info["fsdp1_sharding_strategy"] = _enum_name(units[0].sharding_strategy)
    except ImportError:
        pass
    try:
        from torch.distributed.fsdp import FSDPModule

        units2 = [m for m in model.modules() if isinstance(m, FSDPModule)]
        if units2:
            info["fsdp2_units"] = len(units2)
    except ImportError:
        pass
    # FSDP2 subclasses wrapped modules (CheckpointWrapper -> FSDPCheckpointWrapper), so match by name.
    info["checkpoint_wrappers"] = sum(1 for m in model.modules() if "CheckpointWrapper" in type(m).__name__)
    plugin = getattr(accelerator.state, "fsdp_plugin", None)
    if plugin is not None:
        info["plugin_auto_wrap_policy"] = _wrap_policy_name(plugin.auto_wrap_policy)
        info["plugin_sharding_strategy"] = _enum_name(plugin.sharding_strategy)
    return info


def _prepare_with_accelerator(case, plugin):
    import torch
    from accelerate import Accelerator

    accelerator = Accelerator(fsdp_plugin=plugin) if plugin is not None else Accelerator()
    model = _build_model(case.get("model"))
    if (case.get("model") or {}).get("peft_auto_wrap_policy"):
        from peft.utils.other import fsdp_auto_wrap_policy

        accelerator.state.fsdp_plugin.auto_wrap_policy = fsdp_auto_wrap_policy(model)
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=1e-3)
    model, optimizer = accelerator.prepare(model, optimizer)
    if (case.get("model") or {}).get("kind") == "tiny_llama":
        ids = torch.randint(0, 128, (2, 16), device=accelerator.device)
        out = model(input_ids=ids, labels=ids)
    else:
        x = torch.randn(4, HIDDEN, device=accelerator.device)
        y = torch.randn(4, device=accelerator.device)
        out = model(x=x, labels=y)
    accelerator.backward(out["loss"])
    optimizer.step()
    optimizer.zero_grad()
    info = _describe_prepared(model, accelerator)
    info["loss"] = float(out["loss"].detach().float().cpu())
    return info


class _TinyLMData:
    """Four random sequences for the tiny Llama model."""

    def __init__(self, n=4, length=16):
        import torch

        g = torch.Generator().manual_seed(0)
        self.rows = [torch.randint(0, 128, (length,), generator=g) for _ in range(n)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return {"input_ids": self.rows[i], "labels": self.rows[i].clone()}


def _run_case(case, rec: CaseRecorder, tmpdir):
    """The stages; raises on the first failure (rec.stage says where)."""
    # --- launcher -----------------------------------------------------------------------------
    if case.get("launcher"):
        child_env = _launcher(case, rec, tmpdir)
        rec.result["launch_env"] = _selected_env(child_env)
        _set_process_env(child_env)
    else:
        rec.result["launcher"] = None
        rec.result["launch_env"] = None
    env_before = dict(os.environ)

    if case.get("prepare"):
        # What torchrun gives every rank; world size 1 on the one GPU.
        os.environ.update({"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "LOCAL_WORLD_SIZE": "1",
                           "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(_free_port())})

    # --- TrainingArguments ----------------------------------------------------------------------
    targs = None
    plugin_kwargs = case.get("plugin_kwargs")
    plugin_source = None
    if case.get("training_args") is not None:
        rec.stage = "training_args"
        from transformers import TrainingArguments

        kwargs = dict(case["training_args"])
        if case.get("prepare"):
            kwargs = {**TRAINER_RUN_DEFAULTS, **kwargs}
        targs = TrainingArguments(output_dir=os.path.join(tmpdir, "out"), **kwargs)
        fsdp_plugin_args = getattr(targs, "fsdp_plugin_args", None)
        rec.result["training_args"] = {
            "fsdp": _json_safe(targs.fsdp),
            "fsdp_config": _json_safe(targs.fsdp_config),
            "fsdp_plugin_args": _json_safe(fsdp_plugin_args),
            "mixed_precision": _json_safe(getattr(targs, "mixed_precision", None)),
            "bf16": targs.bf16,
            "fp16": targs.fp16,
            "gradient_checkpointing": targs.gradient_checkpointing,
        }
        if fsdp_plugin_args:
            plugin_kwargs = dict(fsdp_plugin_args)
            plugin_source = "training_args"
    elif plugin_kwargs is not None:
        plugin_source = "plugin_kwargs"

    # --- plugin -------------------------------------------------------------------------------
    rec.stage = "plugin"
    from accelerate.utils import FullyShardedDataParallelPlugin

    plugin = None
    if plugin_kwargs is not None:
        plugin = FullyShardedDataParallelPlugin(**plugin_kwargs)
    elif os.environ.get("ACCELERATE_USE_FSDP", "false").lower() == "true":
        # the test Accelerator.__init__ uses before building a plugin from the environment
        plugin_source = "launcher_env" if case.get("launcher") else "env"
        plugin = FullyShardedDataParallelPlugin()
    rec.result["plugin_source"] = plugin_source
    rec.result["plugin"] = _plugin_fields(plugin) if plugin is not None else None
    rec.result["child_env_changes"] = {
        k: os.environ.get(k) for k in sorted(set(env_before) | set(os.environ))
        if k.startswith(("FSDP_", "ACCELERATE_")) and env_before.get(k) != os.environ.get(k)
    }
    _record_effective(case, rec, plugin, targs)

    # --- prepare --------------------------------------------------------------------------------
    if case.get("prepare"):
        if targs is not None:
            rec.stage = "trainer"
            from transformers import Trainer

            model = _build_model(case.get("model") or {"kind": "tiny_llama"})
            trainer = Trainer(model=model, args=targs, train_dataset=_TinyLMData())
            rec.stage = "prepare"
            output = trainer.train()
            info = _describe_prepared(trainer.model_wrapped, trainer.accelerator)
            info["loss"] = float(output.training_loss)
        else:
            rec.stage = "prepare"
            info = _prepare_with_accelerator(case, plugin)
        rec.result["prepared"] = info
        _shutdown_process_group()
    rec.stage = None


def _shutdown_process_group():
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            dist.destroy_process_group()
    except Exception:  # noqa: BLE001 - teardown only
        pass


def _record_effective(case, rec, plugin, targs):
    launcher = rec.result.get("launcher") or {}
    if plugin is not None:
        distributed_type = "FSDP"
        fsdp = _effective_fsdp(plugin)
    else:
        distributed_type = launcher.get("distributed_type", "NO")
        fsdp = dict(FSDP_DISABLED)
    if targs is not None:
        mixed_precision = getattr(targs, "mixed_precision", None)
        if mixed_precision is None:
            mixed_precision = "bf16" if targs.bf16 else "fp16" if targs.fp16 else os.environ.get("ACCELERATE_MIXED_PRECISION", "no")
    else:
        mixed_precision = os.environ.get("ACCELERATE_MIXED_PRECISION", "no")
    rec.result["effective"] = {
        "distributed_type": distributed_type,
        "use_fsdp": plugin is not None,
        "fsdp": fsdp,
        "mixed_precision": _json_safe(mixed_precision),
        "num_processes": rec.result.get("num_processes"),
    }


def child_main(case_path: str, out_path: str):
    """Entry point of the per-case subprocess."""
    with open(case_path, encoding="utf-8") as f:
        case = json.load(f)
    rec = CaseRecorder()
    _install_warning_capture(rec)
    started = time.time()
    error = None
    with tempfile.TemporaryDirectory(prefix="oracle-") as tmpdir:
        try:
            _run_case(case, rec, tmpdir)
        except BaseException as exc:  # noqa: BLE001 - every failure is a result
            error = _error_record(exc, getattr(exc, "__oracle_stderr__", ""))
            error["traceback_tail"] = traceback.format_exc().splitlines()[-12:]
        finally:
            _shutdown_process_group()
    stage = (rec.stage or "harness") if error is not None else None
    result = {
        "id": case["id"],
        "stage": stage,
        "error": error,
        "effective": rec.result.get("effective") if (error is None or stage in ("trainer", "prepare")) else None,
    }
    for key in ("launcher", "launch_env", "config_file_text", "training_args", "plugin_source", "plugin",
                "child_env_changes", "prepared"):
        if key in rec.result:
            result[key] = rec.result[key]
    result["warnings"] = rec.warnings
    result["elapsed_s"] = round(time.time() - started, 2)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)


# ==================================================================================================
# Parent side
# ==================================================================================================

def library_versions() -> dict:
    """Installed versions (distribution metadata) plus the CUDA build and GPU name."""
    from importlib import metadata

    out = {"python": platform.python_version(), "platform": platform.platform()}
    for dist in ("torch", "accelerate", "transformers", "peft", "PyYAML", "deepspeed", "lightning",
                 "pytorch-lightning", "safetensors", "huggingface-hub"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    try:
        import torch

        out["cuda"] = torch.version.cuda
        out["gpu"] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    except Exception as exc:  # noqa: BLE001
        out["gpu"] = f"unavailable: {exc}"
    return out


def clean_environment(hf_home: str) -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(SCRUB_PREFIXES) and k not in SCRUB_NAMES}
    env.update({
        "HF_HOME": hf_home,  # no default accelerate config file can be picked up
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
        "PYTHONUNBUFFERED": "1",
        "WANDB_DISABLED": "true",
    })
    return env


def run_one(case, workdir, base_env, timeout):
    case_path = os.path.join(workdir, f"{case['id']}.case.json")
    out_path = os.path.join(workdir, f"{case['id']}.result.json")
    with open(case_path, "w", encoding="utf-8") as f:
        json.dump(case, f)
    env = dict(base_env)
    env.update({str(k): str(v) for k, v in (case.get("env") or {}).items()})
    started = time.time()
    try:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", case_path, out_path],
                              env=env, capture_output=True, text=True, timeout=timeout)
        rc, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as exc:
        rc, stderr = "timeout", (exc.stderr or b"").decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
    if os.path.exists(out_path):
        with open(out_path, encoding="utf-8") as f:
            result = json.load(f)
    else:
        result = {"id": case["id"], "stage": "harness", "effective": None, "warnings": [],
                  "error": {"type": "HarnessError", "message": f"child exited with {rc}",
                            "where": None, "stderr_tail": stderr.splitlines()[-20:]},
                  "elapsed_s": round(time.time() - started, 2)}
    # `input` first, for readability of results.json.
    return {"id": case["id"], "input": case, **{k: v for k, v in result.items() if k != "id"}}


def main(argv=None):
    parser = argparse.ArgumentParser(description="launchlint ground-truth oracle")
    parser.add_argument("--cases", default=str(Path(__file__).with_name("cases.json")))
    parser.add_argument("--out", default=str(Path(__file__).with_name("results.json")))
    parser.add_argument("--jobs", type=int, default=max(1, min(14, (os.cpu_count() or 2) - 2)))
    parser.add_argument("--prepare-jobs", type=int, default=4, help="parallel cases that use the GPU")
    parser.add_argument("--timeout", type=int, default=240, help="seconds per case")
    parser.add_argument("--only", default=None, help="comma-separated case ids")
    parser.add_argument("--group", default=None, help="run one group")
    parser.add_argument("--update", action="store_true",
                        help="merge into an existing --out file: re-run cases replace their old results, the rest "
                             "are kept (the library versions must be the same)")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        child_main(*args.child)
        return 0

    with open(args.cases, encoding="utf-8") as f:
        all_cases = json.load(f)["cases"]
    cases = list(all_cases)
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in wanted]
    if args.group:
        cases = [c for c in cases if c["group"] == args.group]

    started = time.time()
    versions = library_versions()
    print(f"oracle: {len(cases)} cases, jobs={args.jobs}, versions={versions}", file=sys.stderr, flush=True)
    gpu_slots = threading.Semaphore(args.prepare_jobs)
    results = {}
    previous, runs = {}, []
    if args.update and os.path.exists(args.out):
        with open(args.out, encoding="utf-8") as f:
            old_doc = json.load(f)
        if old_doc.get("versions", {}).get("torch") != versions.get("torch") or any(
                old_doc.get("versions", {}).get(k) != versions.get(k) for k in ("accelerate", "transformers", "peft")):
            raise SystemExit("oracle: --update refused: the library versions differ from the existing results")
        previous = {r["id"]: r for r in old_doc["cases"]}
        runs = old_doc.get("runs") or []
    this_run = {"started_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                "cases": len(cases), "only": args.only, "group": args.group}
    report_cases = all_cases if args.update else cases

    def write_results(complete: bool):
        this_run["wall_s"] = round(time.time() - started, 1)
        merged = {**previous, **results}
        done = [merged[c["id"]] for c in report_cases if c["id"] in merged]
        by_stage = {}
        for r in done:
            by_stage[str(r["stage"])] = by_stage.get(str(r["stage"]), 0) + 1
        doc = {
            "format": RESULT_FORMAT,
            "generated_by": "tools/oracle/run_oracle.py --cases " + os.path.relpath(args.cases),
            "generated_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "regenerate": "python3 tools/oracle/generate_cases.py && python3 tools/oracle/run_oracle.py "
                          "--cases tools/oracle/cases.json --out tools/oracle/results.json",
            "complete": complete and len(done) == len(report_cases),
            "versions": versions,
            "summary": {"cases": len(done), "by_stage": dict(sorted(by_stage.items()))},
            "runs": runs + [this_run],
            "cases": done,
        }
        tmp = args.out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(tmp, args.out)
        return doc

    with tempfile.TemporaryDirectory(prefix="oracle-run-") as workdir:
        hf_home = os.path.join(workdir, "hf_home")
        os.makedirs(hf_home)
        base_env = clean_environment(hf_home)

        def task(case):
            if case.get("prepare"):
                with gpu_slots:
                    return run_one(case, workdir, base_env, args.timeout)
            return run_one(case, workdir, base_env, args.timeout)

        # GPU and Trainer cases first: they are the slowest.
        ordered = sorted(cases, key=lambda c: (not c.get("prepare"), c.get("training_args") is None))
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(task, c) for c in ordered]
            for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
                res = fut.result()
                results[res["id"]] = res
                if n % 50 == 0:
                    write_results(complete=False)  # partial results survive a time limit
                    print(f"oracle: {n}/{len(cases)} done ({time.time() - started:.0f}s)", file=sys.stderr, flush=True)

    doc = write_results(complete=True)
    print(f"oracle: wrote {args.out}: {doc['summary']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
