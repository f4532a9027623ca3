#!/usr/bin/env python3
"""Print where the oracle's entry points live in the installed libraries (for review, not for commit).

Prints the installed versions, then the file, first line and signature of every function the
oracle calls or whose behaviour it records, and with ``--source`` their source text. Use it on the
device before trusting a new library version: if a name moved, ``run_oracle.py`` must follow it.
The output quotes third-party source; keep it out of the repository.

Usage: python3 tools/oracle/discover.py [--source] > discovery.txt
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import sys

# (module, qualified name) pairs; the first group is what run_oracle.py calls.
TARGETS = [
    ("accelerate.commands.launch", "launch_command_parser"),
    ("accelerate.commands.launch", "_validate_launch_command"),
    ("accelerate.commands.launch", "launch_command"),
    ("accelerate.commands.launch", "multi_gpu_launcher"),
    ("accelerate.commands.launch", "deepspeed_launcher"),
    ("accelerate.utils.launch", "prepare_multi_gpu_env"),
    ("accelerate.utils.launch", "prepare_simple_launcher_cmd_env"),
    ("accelerate.utils.launch", "prepare_deepspeed_cmd_env"),
    ("accelerate.utils.dataclasses", "FullyShardedDataParallelPlugin.__post_init__"),
    ("accelerate.utils.dataclasses", "FullyShardedDataParallelPlugin.set_state_dict_type"),
    ("accelerate.utils.dataclasses", "FullyShardedDataParallelPlugin.set_auto_wrap_policy"),
    ("accelerate.commands.config.config_args", "load_config_from_file"),
    ("accelerate.commands.config.config_args", "BaseConfig.process_config"),
    ("accelerate.utils.environment", "str_to_bool"),
    ("accelerate.utils.fsdp_utils", "fsdp2_prepare_auto_wrap_policy"),
    ("accelerate.utils.fsdp_utils", "fsdp2_apply_ac"),
    ("accelerate.utils.fsdp_utils", "fsdp2_prepare_model"),
    ("accelerate.accelerator", "Accelerator.prepare_model"),
    ("transformers.training_args", "TrainingArguments._process_fsdp_args"),
    ("transformers.training_args", "TrainingArguments._apply_legacy_fsdp_to_config"),
    ("transformers.trainer", "Trainer.create_accelerator_and_postprocess"),
]


def resolve(module_name, qualname):
    obj = importlib.import_module(module_name)
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", action="store_true", help="also print each function's source")
    args = parser.parse_args(argv)
    from importlib import metadata

    print("python", sys.version.replace("\n", " "))
    for dist in ("torch", "accelerate", "transformers", "peft", "PyYAML", "deepspeed", "lightning"):
        try:
            print(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            print(f"{dist} (not installed)")
    for module_name, qualname in TARGETS:
        print("=" * 100)
        try:
            obj = resolve(module_name, qualname)
            lines, first = inspect.getsourcelines(obj)
            path = inspect.getsourcefile(obj)
            try:
                sig = str(inspect.signature(obj))
            except (TypeError, ValueError):
                sig = "(?)"
            print(f"{module_name}.{qualname}{sig}\n  {path}:{first}-{first + len(lines) - 1}")
            if args.source:
                for i, line in enumerate(lines):
                    print(f"{first + i:5d} {line}", end="")
        except Exception as exc:  # noqa: BLE001 - a missing name is itself the finding
            print(f"{module_name}.{qualname}: NOT FOUND ({type(exc).__name__}: {exc})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
