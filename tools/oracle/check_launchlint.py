#!/usr/bin/env python3
"""Compare launchlint with the ground-truth oracle's recorded results (tools/oracle/results.json).

Stdlib only (Python 3.11); runs in CI without GPUs or ML libraries:

    python3 tools/oracle/check_launchlint.py --launchlint build/launchlint
    bash tests/e2e/oracle_agreement.sh build/launchlint          # the ctest entry point

For every case of ``results.json``:

1. **Materialise** the launch into a temp folder as the oracle described it (``cases[].input``):
   ``fsdp.yaml`` / ``fsdp.json`` (``config_text`` verbatim, else ``config`` written by a small emitter that
   reproduces ``yaml.safe_dump(sort_keys=False, default_flow_style=False)``, or ``json.dumps(indent=2)``; the
   text is checked against the ``config_file_text`` the oracle recorded, a mismatch fails the run),
   ``launch.sh`` (``export K=V`` for ``env``, then ``accelerate launch [--config_file fsdp.yaml] <flags>
   train.py`` or ``python train.py``) and ``train.py`` (``FullyShardedDataParallelPlugin(<kwargs as
   literals>)`` + ``Accelerator(fsdp_plugin=plugin)``, or ``TrainingArguments(output_dir="out", <kwargs>)``,
   or a plain ``Accelerator()``; ``prepare`` cases also build the oracle's tiny model (LoRA / partial freeze
   as described) and run ``accelerator.prepare`` / ``Trainer(...).train()`` with the oracle's Trainer run
   defaults, because that is the code the oracle executed).
2. ``launchlint explain --isolated --format json .`` in that folder. The launch used is the one bound from
   ``launch.sh`` (``per_file == false`` and ``launch.sh`` among its files). Without one, a ``launcher: true``
   case without flags, env, plugin, TrainingArguments or ``prepare`` model falls back to the per-file launch
   of the config file (the script is a plain ``Accelerator()``, so the file is the whole launch); any other
   case is **not bound** and is not compared at all (neither values nor errors: without the binding,
   launchlint does not see the launch the oracle ran).
3. Effective values: the oracle is the truth. Per key: a known launchlint value that differs after
   normalisation is a **disagreement**; ``known: false`` or an absent key where the oracle has a value is
   **unknown** (allowed, counted and listed). Values are compared whenever the oracle recorded
   ``effective`` (``stage`` null, and also ``trainer`` / ``prepare`` cases, whose plugin was constructed
   before the failure).
4. Error / no-error: ``launchlint --isolated --format json .`` (exit 0/1 normal, anything else fails the
   run). A case where the real code raised (``stage`` set) needs at least one finding with severity
   ``error`` (else **missed-error**); a case that ran cleanly must have none (else **false-error**).
5. ``tools/oracle/expected_disagreements.json`` lists the known ones ``[{id, kind, key?, reason}]``,
   ``kind`` in ``value`` / ``missed-error`` / ``false-error`` (``key`` for ``value``). Exit 1 on a
   disagreement that is not listed and on a listed one that no longer occurs (stale), so the list stays
   honest. ``--list-unlisted`` prints the unlisted ones in that format (reason left empty, to be written by
   a person after checking the libraries' source).

Normalisation (oracle key -> launchlint canonical key; ``effective.X`` -> ``X``, ``effective.fsdp.X`` ->
``fsdp.X``, ``transformer_cls_names_to_wrap`` -> ``fsdp.transformer_layer_cls_to_wrap``):

- Oracle ``null`` means "not used" (by that FSDP version, or by that wrap policy: ``min_num_params`` only
  with SIZE_BASED_WRAP, ``transformer_cls_names_to_wrap`` only when given; ``num_processes`` without a
  launcher): not compared. Exception: FSDP1 ``backward_prefetch: null`` is the value NO_PREFETCH, so it is
  compared and launchlint's known ``null`` / ``NO_PREFETCH`` / ``none`` agree with it.
- FSDP1 never reads ``reshard_after_forward`` (the wrapper gets ``sharding_strategy or
  reshard_after_forward`` and ``sharding_strategy`` is always filled): skipped when the oracle's version is
  1. FSDP2 skips ``sharding_strategy``, ``backward_prefetch``, ``forward_prefetch``, ``use_orig_params``,
  ``sync_module_states``.
- FSDP off in the oracle (``fsdp.enabled: false``): only ``fsdp.enabled`` and the top-level keys are
  compared. FSDP on but launchlint knows it is off: one disagreement on ``fsdp.enabled``, the other
  ``fsdp.*`` keys are not compared. Version differs: one disagreement on ``fsdp.version``, the
  version-specific keys (strategy, reshard, prefetch, sync, orig params) are not compared.
- Enums by name: upper-cased, torch's leading ``_`` dropped, accelerate's digit spellings mapped
  (sharding 1-5 = FULL_SHARD, SHARD_GRAD_OP, NO_SHARD, HYBRID_SHARD, HYBRID_SHARD_ZERO2; state dict 1-3 =
  FULL, LOCAL, SHARDED; backward prefetch 1-2 = BACKWARD_PRE, BACKWARD_POST). ``mixed_precision`` is
  compared lower-cased, ``distributed_type`` upper-cased.
- Booleans: a string is read with accelerate's ``str_to_bool`` (y/yes/t/true/on/1, n/no/f/false/off/0, any
  case); integers 0/1 as False/True.
- Integers (``version``, ``num_processes``, ``min_num_params``): an integer-literal string is its integer.
- Transformer classes: a string is split on ``,`` without stripping (accelerate keeps the blank:
  ``"A, B"`` -> ``["A", " B"]``), a list is compared item by item.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT_RESULTS = HERE / "results.json"
DEFAULT_EXPECTED = HERE / "expected_disagreements.json"

KINDS = ("value", "missed-error", "false-error")

# ------------------------------------------------------------------------------------------------
# YAML emitter: plain dicts / lists / scalars, the way yaml.safe_dump(sort_keys=False,
# default_flow_style=False) writes them, so the file launchlint reads is the one accelerate read.
# ------------------------------------------------------------------------------------------------

# PyYAML's (YAML 1.1) implicit resolvers: a plain scalar matching one of these is not loaded as a string.
_YAML_IMPLICIT = [
    re.compile(r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"),
    re.compile(r"^(?:~|null|Null|NULL|)$"),
    re.compile(r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
               r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"),
    re.compile(r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?"
               r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"),
    re.compile(r"^(?:<<)$"),
    re.compile(r"^(?:=)$"),
    re.compile(r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
               r"(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?"
               r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$"),
]
_YAML_INDICATOR_START = set("-?:,[]{}#&*!|>'\"%@`")


def _yaml_plain_ok(s: str) -> bool:
    """True when PyYAML would write s as a plain (unquoted) scalar in block context."""
    if s == "" or s != s.strip() or any(p.match(s) for p in _YAML_IMPLICIT):
        return False  # would load as another type (or lose its blanks)
    if s.startswith(("---", "...")):
        return False
    if s[0] in _YAML_INDICATOR_START and not (s[0] in "-?:" and len(s) > 1 and s[1] not in " \t"):
        return False
    if ": " in s or " #" in s or s.endswith(":") or "\n" in s or "\t" in s:
        return False
    return all(ch.isprintable() for ch in s)


def _yaml_scalar(v) -> str:
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if v != v:
            return ".nan"
        if v in (float("inf"), float("-inf")):
            return ".inf" if v > 0 else "-.inf"
        text = repr(v).lower()
        if "." not in text and "e" in text:
            text = text.replace("e", ".0e", 1)
        return text
    if isinstance(v, str):
        if _yaml_plain_ok(v):
            return v
        if all(ch.isprintable() for ch in v):
            return "'" + v.replace("'", "''") + "'"
        return json.dumps(v)
    raise TypeError(f"cannot write {type(v).__name__} as YAML")


def yaml_dump(data) -> str:
    """yaml.safe_dump(data, sort_keys=False, default_flow_style=False) for plain dicts/lists/scalars."""
    lines: list[str] = []

    def mapping(d: dict, indent: int, first_prefix: str | None = None):
        for i, (k, v) in enumerate(d.items()):
            pad = first_prefix if (i == 0 and first_prefix is not None) else " " * indent
            head = pad + _yaml_scalar(k) + ":"
            if isinstance(v, dict) and v:
                lines.append(head)
                mapping(v, indent + 2)
            elif isinstance(v, list) and v:
                lines.append(head)
                sequence(v, indent)  # PyYAML does not indent a sequence inside a mapping
            else:
                lines.append(head + " " + flat(v))

    def sequence(items: list, indent: int, first_prefix: str | None = None):
        for i, item in enumerate(items):
            pad = first_prefix if (i == 0 and first_prefix is not None) else " " * indent
            if isinstance(item, dict) and item:
                mapping(item, indent + 2, pad + "- ")
            elif isinstance(item, list) and item:
                sequence(item, indent + 2, pad + "- ")
            else:
                lines.append(pad + "- " + flat(item))

    def flat(v) -> str:
        if isinstance(v, dict):
            return "{}"
        if isinstance(v, list):
            return "[]"
        return _yaml_scalar(v)

    if isinstance(data, dict) and data:
        mapping(data, 0)
    elif isinstance(data, list) and data:
        sequence(data, 0)
    elif isinstance(data, (dict, list)):
        lines.append(flat(data))
    else:
        return _yaml_scalar(data) + "\n...\n"
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------------------------
# Materialisation
# ------------------------------------------------------------------------------------------------

TINY_BLOCKS = '''\
class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc1 = nn.Linear(d, d)
        self.fc2 = nn.Linear(d, d)

    def forward(self, x):
        return x + self.fc2(torch.relu(self.fc1(x)))


class TinyModel(nn.Module):
    _no_split_modules = ["Block"]

    def __init__(self, d=32, n=2):
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

'''

TINY_LLAMA = ("model = LlamaForCausalLM(LlamaConfig(vocab_size=128, hidden_size=32, intermediate_size=64, "
              "num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=64))\n")

TINY_LM_DATA = '''\
class TinyLMData:
    def __init__(self, n=4, length=16):
        g = torch.Generator().manual_seed(0)
        self.rows = [torch.randint(0, 128, (length,), generator=g) for _ in range(n)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return {"input_ids": self.rows[i], "labels": self.rows[i].clone()}

'''

# what run_oracle.py adds to TrainingArguments for prepare cases (TRAINER_RUN_DEFAULTS)
TRAINER_RUN_DEFAULTS = {"max_steps": 1, "per_device_train_batch_size": 2, "save_strategy": "no",
                        "logging_strategy": "no", "disable_tqdm": True, "remove_unused_columns": False,
                        "dataloader_num_workers": 0}


def _call_args(kwargs: dict, first: str = "") -> str:
    parts = [first] if first else []
    rest = {}
    for k, v in kwargs.items():
        if isinstance(k, str) and k.isidentifier():
            parts.append(f"{k}={v!r}")
        else:
            rest[k] = v
    if rest:
        parts.append(f"**{rest!r}")
    return ", ".join(parts)


def _model_code(spec: dict) -> tuple[list[str], str]:
    """(imports, code that leaves `model` built as the oracle built it)."""
    spec = spec or {}
    imports: list[str] = []
    if spec.get("kind") == "tiny_llama":
        imports.append("from transformers import LlamaConfig, LlamaForCausalLM")
        code = TINY_LLAMA
        targets = '["q_proj", "v_proj"]'
    else:
        code = "model = TinyModel()\n"
        targets = '["fc1", "fc2"]'
    if spec.get("dtype"):
        code += f"model = model.to(torch.{spec['dtype']})\n"
    if spec.get("freeze") == "partial":
        code += ("for name, p in model.named_parameters():\n"
                 "    if name.startswith(\"inp.\") or \".fc1.\" in name:\n"
                 "        p.requires_grad_(False)\n")
    if spec.get("lora"):
        imports.append("from peft import LoraConfig, get_peft_model")
        code += f"model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules={targets}))\n"
    return imports, code


def train_py(inp: dict) -> str:
    plugin_kwargs = inp.get("plugin_kwargs")
    training_args = inp.get("training_args")
    prepare = bool(inp.get("prepare"))
    model = inp.get("model") or {}
    imports: list[str] = []
    body = ""
    if prepare:
        imports += ["import torch", "from torch import nn"]
    if training_args is not None:
        imports.append("from transformers import Trainer, TrainingArguments" if prepare
                       else "from transformers import TrainingArguments")
        kwargs = {**TRAINER_RUN_DEFAULTS, **training_args} if prepare else dict(training_args)
        body += "args = TrainingArguments(" + _call_args(kwargs, 'output_dir="out"') + ")\n"
        if prepare:
            m_imports, m_code = _model_code(model)
            imports += m_imports
            if model.get("kind") != "tiny_llama":
                body = TINY_BLOCKS + body
            body = TINY_LM_DATA + body
            body += m_code
            body += "trainer = Trainer(model=model, args=args, train_dataset=TinyLMData())\ntrainer.train()\n"
    else:
        imports.append("from accelerate import Accelerator")
        if plugin_kwargs is not None:
            imports.append("from accelerate.utils import FullyShardedDataParallelPlugin")
            body += f"plugin = FullyShardedDataParallelPlugin({_call_args(plugin_kwargs)})\n"
            body += "accelerator = Accelerator(fsdp_plugin=plugin)\n"
        else:
            body += "accelerator = Accelerator()\n"
        if prepare:
            m_imports, m_code = _model_code(model)
            imports += m_imports
            if model.get("kind") != "tiny_llama":
                body = TINY_BLOCKS + body
            body += m_code
            if model.get("peft_auto_wrap_policy"):
                imports.append("from peft.utils.other import fsdp_auto_wrap_policy")
                body += "accelerator.state.fsdp_plugin.auto_wrap_policy = fsdp_auto_wrap_policy(model)\n"
            body += ("optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-3)\n"
                     "model, optimizer = accelerator.prepare(model, optimizer)\n")
            if model.get("kind") == "tiny_llama":
                body += ("ids = torch.randint(0, 128, (2, 16), device=accelerator.device)\n"
                         "out = model(input_ids=ids, labels=ids)\n")
            else:
                body += ("x = torch.randn(4, 32, device=accelerator.device)\n"
                         "y = torch.randn(4, device=accelerator.device)\n"
                         "out = model(x=x, labels=y)\n")
            body += "accelerator.backward(out[\"loss\"])\noptimizer.step()\noptimizer.zero_grad()\n"
    return "\n".join(imports) + "\n\n" + body


def config_file(inp: dict) -> tuple[str | None, str | None]:
    """(file name, text) of the accelerate config, or (None, None)."""
    name = "fsdp.json" if inp.get("config_format") == "json" else "fsdp.yaml"
    if inp.get("config_text") is not None:
        return name, inp["config_text"]
    if inp.get("config") is None:
        return None, None
    if inp.get("config_format") == "json":
        return name, json.dumps(inp["config"], indent=2) + "\n"
    return name, yaml_dump(inp["config"])


def launch_sh(inp: dict, config_name: str | None) -> str:
    lines = ["#!/usr/bin/env bash"]
    for k, v in (inp.get("env") or {}).items():
        lines.append(f"export {k}={shlex.quote(str(v))}")
    if inp.get("launcher"):
        argv = ["accelerate", "launch"]
        if config_name is not None:
            argv += ["--config_file", config_name]
        argv += list(inp.get("launch_flags") or []) + ["train.py"]
    else:
        argv = ["python", "train.py"]
    lines.append(" ".join(shlex.quote(a) for a in argv))
    return "\n".join(lines) + "\n"


def materialise(case: dict, folder: Path) -> dict:
    inp = case["input"]
    folder.mkdir(parents=True, exist_ok=True)
    name, text = config_file(inp)
    problems = []
    if name is not None:
        (folder / name).write_text(text, encoding="utf-8")
        recorded = case.get("config_file_text")
        if recorded is not None and recorded != text:
            problems.append(f"{case['id']}: the {name} written differs from the config_file_text the oracle read")
    (folder / "launch.sh").write_text(launch_sh(inp, name), encoding="utf-8")
    (folder / "train.py").write_text(train_py(inp), encoding="utf-8")
    return {"config_name": name, "problems": problems}


# ------------------------------------------------------------------------------------------------
# launchlint
# ------------------------------------------------------------------------------------------------

def run_launchlint(binary: str, folder: Path, explain: bool) -> tuple[object | None, str | None]:
    argv = [binary] + (["explain"] if explain else []) + ["--isolated", "--format", "json", "--jobs", "1", "."]
    try:
        proc = subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "NO_COLOR": "1"})
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{' '.join(argv[1:])}: {exc}"
    allowed = (0,) if explain else (0, 1)
    if proc.returncode not in allowed:
        return None, f"{' '.join(argv[1:])}: exit {proc.returncode}: {proc.stderr.strip()[:300]}"
    try:
        data = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        return None, f"{' '.join(argv[1:])}: not JSON ({exc}): {proc.stdout[:200]!r}"
    # `check --format json` is {"version", "files_checked", "diagnostics"} (docs/schema/); explain is a list.
    return (data.get("diagnostics") if isinstance(data, dict) else data), None


def _base(p: str) -> str:
    return os.path.basename(p.replace("\\", "/"))


def pick_launch(launches: list, inp: dict, config_name: str | None) -> tuple[dict | None, str]:
    """(launch, how): how is 'bound', 'per-file' or 'not bound'."""
    for launch in launches:
        if not launch.get("per_file") and "launch.sh" in {_base(f) for f in launch.get("files", [])}:
            return launch, "bound"
    simple = (inp.get("launcher") and not inp.get("launch_flags") and not inp.get("env")
              and inp.get("plugin_kwargs") is None and inp.get("training_args") is None
              and not inp.get("prepare"))
    if simple and config_name is not None:
        for launch in launches:
            if launch.get("per_file") and [_base(f) for f in launch.get("files", [])] == [config_name]:
                return launch, "per-file"
    return None, "not bound"


# ------------------------------------------------------------------------------------------------
# Normalisation and comparison
# ------------------------------------------------------------------------------------------------

BOOL_KEYS = {"fsdp.enabled", "fsdp.reshard_after_forward", "fsdp.activation_checkpointing",
             "fsdp.cpu_ram_efficient_loading", "fsdp.sync_module_states", "fsdp.use_orig_params",
             "fsdp.offload_params", "fsdp.forward_prefetch"}
INT_KEYS = {"num_processes", "fsdp.version", "fsdp.min_num_params"}
ENUM_DIGITS = {
    "fsdp.sharding_strategy": {1: "FULL_SHARD", 2: "SHARD_GRAD_OP", 3: "NO_SHARD", 4: "HYBRID_SHARD",
                               5: "HYBRID_SHARD_ZERO2"},
    "fsdp.state_dict_type": {1: "FULL_STATE_DICT", 2: "LOCAL_STATE_DICT", 3: "SHARDED_STATE_DICT"},
    "fsdp.backward_prefetch": {1: "BACKWARD_PRE", 2: "BACKWARD_POST"},
    "fsdp.auto_wrap_policy": {},
}
TRUE_WORDS = {"y", "yes", "t", "true", "on", "1"}
FALSE_WORDS = {"n", "no", "f", "false", "off", "0"}

# oracle key (path under effective) -> launchlint canonical key
KEY_MAP = [
    ("distributed_type", "distributed_type"),
    ("mixed_precision", "mixed_precision"),
    ("num_processes", "num_processes"),
    ("fsdp.enabled", "fsdp.enabled"),
    ("fsdp.version", "fsdp.version"),
    ("fsdp.sharding_strategy", "fsdp.sharding_strategy"),
    ("fsdp.reshard_after_forward", "fsdp.reshard_after_forward"),
    ("fsdp.activation_checkpointing", "fsdp.activation_checkpointing"),
    ("fsdp.auto_wrap_policy", "fsdp.auto_wrap_policy"),
    ("fsdp.transformer_cls_names_to_wrap", "fsdp.transformer_layer_cls_to_wrap"),
    ("fsdp.min_num_params", "fsdp.min_num_params"),
    ("fsdp.cpu_ram_efficient_loading", "fsdp.cpu_ram_efficient_loading"),
    ("fsdp.sync_module_states", "fsdp.sync_module_states"),
    ("fsdp.use_orig_params", "fsdp.use_orig_params"),
    ("fsdp.offload_params", "fsdp.offload_params"),
    ("fsdp.backward_prefetch", "fsdp.backward_prefetch"),
    ("fsdp.forward_prefetch", "fsdp.forward_prefetch"),
    ("fsdp.state_dict_type", "fsdp.state_dict_type"),
]
V1_ONLY = {"fsdp.sharding_strategy", "fsdp.backward_prefetch", "fsdp.forward_prefetch", "fsdp.use_orig_params",
           "fsdp.sync_module_states"}
V2_ONLY = {"fsdp.reshard_after_forward"}
NO_PREFETCH = "<none>"


def normalise(key: str, v):
    if key in BOOL_KEYS:
        if isinstance(v, bool):
            return v
        if isinstance(v, int) and v in (0, 1):
            return bool(v)
        if isinstance(v, str) and v.strip().lower() in TRUE_WORDS | FALSE_WORDS:
            return v.strip().lower() in TRUE_WORDS
        return v
    if key in INT_KEYS:
        if isinstance(v, bool):
            return v
        if isinstance(v, str) and re.fullmatch(r"[-+]?[0-9]+", v.strip()):
            return int(v)
        return v
    if key in ENUM_DIGITS:
        if key == "fsdp.backward_prefetch" and (v is None or (isinstance(v, str) and v.strip().upper() in
                                                              ("NO_PREFETCH", "NONE", ""))):
            return NO_PREFETCH
        digits = ENUM_DIGITS[key]
        if isinstance(v, int) and not isinstance(v, bool) and v in digits:
            return digits[v]
        if isinstance(v, str):
            s = v.strip()
            if s.isdigit() and int(s) in digits:
                return digits[int(s)]
            if key == "fsdp.auto_wrap_policy" and s.upper().startswith("CUSTOM:"):
                return s
            return s.upper().lstrip("_")
        return v
    if key == "mixed_precision":
        return v.lower() if isinstance(v, str) else v
    if key == "distributed_type":
        return v.upper() if isinstance(v, str) else v
    if key == "fsdp.transformer_layer_cls_to_wrap":
        if isinstance(v, str):
            return v.split(",")
        if isinstance(v, list):
            return [str(x) for x in v]
        return v
    return v


def oracle_value(effective: dict, path: str):
    cur = effective
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def compare_values(oracle: dict, ll_effective: dict) -> list[dict]:
    """One record per compared key: {key, status (agree|disagree|unknown), oracle, launchlint}."""
    out = []
    fsdp_on = bool(oracle_value(oracle, "fsdp.enabled"))
    version = oracle_value(oracle, "fsdp.version")
    skip_fsdp = False
    version_mismatch = False

    def ll(key):
        e = ll_effective.get(key)
        if not isinstance(e, dict) or not e.get("known"):
            return False, None
        return True, e.get("value")

    for opath, lkey in KEY_MAP:
        if lkey.startswith("fsdp.") and lkey != "fsdp.enabled":
            if not fsdp_on or skip_fsdp:
                continue
            if version == 1 and lkey in V2_ONLY:
                continue
            if version == 2 and lkey in V1_ONLY:
                continue
            if version_mismatch and lkey in V1_ONLY | V2_ONLY:
                continue
        ov = oracle_value(oracle, opath)
        if ov is None and not (lkey == "fsdp.backward_prefetch" and fsdp_on and version == 1):
            continue
        known, lv = ll(lkey)
        rec = {"key": lkey, "oracle": ov, "launchlint": lv if known else None}
        if not known:
            rec["status"] = "unknown"
        else:
            rec["status"] = "agree" if normalise(lkey, ov) == normalise(lkey, lv) else "disagree"
        out.append(rec)
        if lkey == "fsdp.enabled" and known and rec["status"] == "disagree":
            skip_fsdp = True
        if lkey == "fsdp.version" and known and rec["status"] == "disagree":
            version_mismatch = True
    return out


# ------------------------------------------------------------------------------------------------
# Driver
# ------------------------------------------------------------------------------------------------

def check_case(binary: str, case: dict, root: Path) -> dict:
    inp = case["input"]
    folder = root / re.sub(r"[^A-Za-z0-9_.-]", "_", case["id"])
    info = materialise(case, folder)
    res = {"id": case["id"], "problems": list(info["problems"]), "binding": "not bound", "values": [],
           "errors": [], "error_outcome": None}
    launches, err = run_launchlint(binary, folder, explain=True)
    if err:
        res["problems"].append(f"{case['id']}: {err}")
        return res
    findings, err = run_launchlint(binary, folder, explain=False)
    if err:
        res["problems"].append(f"{case['id']}: {err}")
        return res
    launch, how = pick_launch(launches if isinstance(launches, list) else [], inp, info["config_name"])
    res["binding"] = how
    if launch is None:
        return res
    if case.get("effective") is not None:
        res["values"] = compare_values(case["effective"], launch.get("effective") or {})
    errors = [f for f in findings if isinstance(f, dict) and f.get("severity") == "error"
              and not f.get("suppressed")]
    res["errors"] = sorted({f.get("code", "?") for f in errors})
    raised = case.get("stage") is not None
    if raised and not errors:
        res["error_outcome"] = "missed-error"
    elif not raised and errors:
        res["error_outcome"] = "false-error"
    else:
        res["error_outcome"] = "agree"
    return res


def disagreements_of(res: dict, case: dict) -> list[dict]:
    out = []
    for v in res["values"]:
        if v["status"] == "disagree":
            out.append({"id": res["id"], "kind": "value", "key": v["key"],
                        "detail": f"oracle {json.dumps(v['oracle'])}, launchlint {json.dumps(v['launchlint'])}"})
    if res["error_outcome"] == "missed-error":
        err = case.get("error") or {}
        out.append({"id": res["id"], "kind": "missed-error",
                    "detail": f"{case.get('stage')}: {err.get('type')}: {str(err.get('message'))[:100]}"})
    elif res["error_outcome"] == "false-error":
        out.append({"id": res["id"], "kind": "false-error", "detail": "launchlint errors: " + ", ".join(res["errors"])})
    return out


def entry_key(e: dict) -> tuple:
    return (e.get("id"), e.get("kind"), e.get("key") if e.get("kind") == "value" else None)


def load_expected(path: Path) -> tuple[list[dict], list[str]]:
    if not path.exists():
        return [], []
    data = json.loads(path.read_text(encoding="utf-8"))
    problems = []
    if not isinstance(data, list):
        return [], [f"{path}: must be a JSON array"]
    seen = set()
    for e in data:
        if not isinstance(e, dict) or e.get("kind") not in KINDS or not e.get("id"):
            problems.append(f"{path}: bad entry {e!r}")
            continue
        if e["kind"] == "value" and not e.get("key"):
            problems.append(f"{path}: value entry without key: {e!r}")
        if not str(e.get("reason", "")).strip():
            problems.append(f"{path}: entry without reason: {e!r}")
        if entry_key(e) in seen:
            problems.append(f"{path}: duplicate entry {e!r}")
        seen.add(entry_key(e))
    return data, problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--launchlint", required=True, help="path of the launchlint binary")
    ap.add_argument("--results", default=str(DEFAULT_RESULTS))
    ap.add_argument("--expected", default=str(DEFAULT_EXPECTED))
    ap.add_argument("--jobs", type=int, default=min(8, (os.cpu_count() or 2) * 2))
    ap.add_argument("--only", help="comma-separated case ids")
    ap.add_argument("--keep", help="materialise into this folder and keep it")
    ap.add_argument("--report", help="write per-case results as JSON to this file")
    ap.add_argument("--list-unlisted", action="store_true",
                    help="print the unlisted disagreements as expected_disagreements.json entries")
    ap.add_argument("--verbose", action="store_true", help="list every unknown value")
    args = ap.parse_args(argv)

    binary = os.path.abspath(args.launchlint)
    if not os.access(binary, os.X_OK):
        print(f"launchlint binary not found: {binary}", file=sys.stderr)
        return 2
    results = json.loads(Path(args.results).read_text(encoding="utf-8"))
    cases = results["cases"]
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in wanted]
    by_id = {c["id"]: c for c in cases}
    expected, problems = load_expected(Path(args.expected))

    started = time.time()
    tmp = None
    if args.keep:
        root = Path(args.keep)
        root.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="launchlint-oracle-")
        root = Path(tmp.name)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            outs = list(pool.map(lambda c: check_case(binary, c, root), cases))
    finally:
        if tmp is not None:
            tmp.cleanup()
    elapsed = time.time() - started

    for r in outs:
        problems += r["problems"]

    # ---- numbers ----
    n_bound = sum(r["binding"] == "bound" for r in outs)
    n_perfile = sum(r["binding"] == "per-file" for r in outs)
    n_notbound = sum(r["binding"] == "not bound" for r in outs)
    vals = [v for r in outs for v in r["values"]]
    v_agree = sum(v["status"] == "agree" for v in vals)
    v_dis = sum(v["status"] == "disagree" for v in vals)
    v_unk = sum(v["status"] == "unknown" for v in vals)
    v_cases = sum(bool(r["values"]) for r in outs)
    err_cmp = [r for r in outs if r["error_outcome"] is not None]
    e_agree = sum(r["error_outcome"] == "agree" for r in err_cmp)
    e_missed = sum(r["error_outcome"] == "missed-error" for r in err_cmp)
    e_false = sum(r["error_outcome"] == "false-error" for r in err_cmp)
    raised_cmp = [r for r in err_cmp if by_id[r["id"]].get("stage") is not None]
    clean_cmp = [r for r in err_cmp if by_id[r["id"]].get("stage") is None]

    found = {}
    for r in outs:
        for d in disagreements_of(r, by_id[r["id"]]):
            found[entry_key(d)] = d
    only_ids = set(by_id)
    listed = {entry_key(e): e for e in expected if e.get("id") in only_ids}
    unlisted = [d for k, d in found.items() if k not in listed]
    stale = [e for k, e in listed.items() if k not in found]
    explained = [d for k, d in found.items() if k in listed]

    def pct(a, b):
        if not b:
            return "n/a"
        text = f"{100.0 * a / b:.1f}"
        if text == "100.0" and a != b:  # never round a disagreement away
            text = f"{100.0 * a / b:.2f}" if f"{100.0 * a / b:.2f}" != "100.00" else "99.99"
        return text + "%"

    print(f"launchlint vs oracle ({results.get('versions', {}).get('accelerate', '?')} accelerate results): "
          f"{len(outs)} cases in {elapsed:.1f} s")
    print(f"  binding: {n_bound} bound from launch.sh, {n_perfile} per-file config fallback, {n_notbound} not bound")
    print(f"  values: {v_cases} cases, {len(vals)} key comparisons: {v_agree} agree, {v_dis} disagree, "
          f"{v_unk} unknown; agreement {pct(v_agree, v_agree + v_dis)} of known values, "
          f"known {pct(v_agree + v_dis, len(vals))} of compared keys")
    print(f"  error/no-error: {len(err_cmp)} cases compared, {e_agree} agree ({pct(e_agree, len(err_cmp))}); "
          f"raised {len(raised_cmp)}: {len(raised_cmp) - e_missed} caught, {e_missed} missed; "
          f"clean {len(clean_cmp)}: {len(clean_cmp) - e_false} clean, {e_false} false errors")
    print(f"  disagreements: {len(found)} ({len(explained)} listed in {os.path.relpath(args.expected)}), "
          f"{len(unlisted)} unlisted, {len(stale)} stale entries")

    unknown_by_key: dict[str, list[str]] = {}
    for r in outs:
        for v in r["values"]:
            if v["status"] == "unknown":
                unknown_by_key.setdefault(v["key"], []).append(r["id"])
    if unknown_by_key:
        print("  unknown values (launchlint does not know, the oracle does), by key:")
        for key, ids in sorted(unknown_by_key.items(), key=lambda kv: (-len(kv[1]), kv[0])):
            shown = ids if args.verbose else ids[:6]
            more = "" if len(shown) == len(ids) else f", … (+{len(ids) - len(shown)}; --verbose lists all)"
            print(f"    {key}: {len(ids)}: {', '.join(shown)}{more}")

    if unlisted:
        print("UNLISTED disagreements (fix launchlint, or list them with a reason in expected_disagreements.json):")
        for d in sorted(unlisted, key=lambda d: (d["kind"], d["id"], d.get("key") or "")):
            print(f"  {d['id']}: {d['kind']}{' ' + d['key'] if d.get('key') else ''}: {d['detail']}")
    if stale:
        print("STALE entries (listed but no longer occurring; remove them):")
        for e in stale:
            print(f"  {e['id']}: {e['kind']}{' ' + e['key'] if e.get('key') else ''}: {e.get('reason', '')}")
    if problems:
        print("PROBLEMS:")
        for p in problems:
            print("  " + p)

    if args.list_unlisted:
        entries = []
        for d in sorted(unlisted, key=lambda d: (d["id"], d["kind"], d.get("key") or "")):
            e = {"id": d["id"], "kind": d["kind"]}
            if d.get("key"):
                e["key"] = d["key"]
            e["reason"] = ""
            e["detail"] = d["detail"]
            entries.append(e)
        print(json.dumps(entries, indent=1))
    if args.report:
        Path(args.report).write_text(json.dumps({
            "summary": {"cases": len(outs), "bound": n_bound, "per_file": n_perfile, "not_bound": n_notbound,
                        "value_cases": v_cases, "value_comparisons": len(vals), "agree": v_agree,
                        "disagree": v_dis, "unknown": v_unk, "error_cases": len(err_cmp), "error_agree": e_agree,
                        "missed_error": e_missed, "false_error": e_false, "unlisted": len(unlisted),
                        "stale": len(stale), "seconds": round(elapsed, 1)},
            "cases": outs, "unlisted": unlisted, "stale": stale}, indent=1), encoding="utf-8")

    ok = not unlisted and not stale and not problems
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
