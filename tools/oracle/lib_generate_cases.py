#!/usr/bin/env python3
"""Writes tools/oracle/lib_cases.json: whole launches (the files launchlint reads) for run_lib_oracle.py.

Stdlib only, deterministic. Each case:

  id, group, description
  rules     the launchlint rules the case is evidence for
  expect    what the case was written to show: "raises" (the library raises), "misbehaves" (it runs, not as
            written), "runs" (a near-miss that must stay silent). The oracle's result decides; check_lib_launchlint.py
            compares launchlint with the result, not with this field.
  files     {relative path: text}: launch.sh (or job.sbatch), the scripts, YAML / JSON configs, tiny models'
            config.json. Exactly these files are what the oracle runs and what launchlint is run on.
  oracle    {mode: run | dry | slurm, gpu, models: [{path, class}], timeout, env}

    python3 tools/oracle/lib_generate_cases.py          # writes lib_cases.json beside this file
"""

from __future__ import annotations

import json
from pathlib import Path

CASES: list[dict] = []
PORT = [29610]


def port() -> int:
    PORT[0] += 1
    return PORT[0]


def add(id, group, rules, expect, description, files, mode, gpu=False, models=None, timeout=None, env=None,
        anomaly_patterns=None, intended_world=None, fake_world=False, claim_torch=None):
    assert expect in ("raises", "misbehaves", "runs"), expect
    assert all(c["id"] != id for c in CASES), id
    oracle = {"mode": mode, "gpu": gpu}
    if models:
        oracle["models"] = models
    if timeout:
        oracle["timeout"] = timeout
    if env:
        oracle["env"] = env
    if anomaly_patterns:
        oracle["anomaly_patterns"] = anomaly_patterns
    if intended_world:
        oracle["intended_world"] = intended_world
    if fake_world:
        oracle["fake_world"] = True
    if claim_torch:
        oracle["claim_torch"] = claim_torch
    CASES.append({"id": id, "group": group, "rules": rules, "expect": expect, "description": description,
                  "files": files, "oracle": oracle})


# ---------------------------------------------------------------------------------------------------------------
# tiny models (config.json the case ships; the oracle saves weights beside it)

def _cfg(d: dict) -> str:
    return json.dumps(d, indent=2) + "\n"


TINY = {
    "llama": ("LlamaDecoderLayer", "AutoModelForCausalLM",
              {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
               "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 4, "vocab_size": 128,
               "max_position_embeddings": 64}),
    "qwen2": ("Qwen2DecoderLayer", "AutoModelForCausalLM",
              {"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
               "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 128,
               "max_position_embeddings": 64}),
    "mistral": ("MistralDecoderLayer", "AutoModelForCausalLM",
                {"model_type": "mistral", "architectures": ["MistralForCausalLM"], "hidden_size": 64,
                 "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2,
                 "vocab_size": 128, "max_position_embeddings": 64}),
    "qwen3": ("Qwen3DecoderLayer", "AutoModelForCausalLM",
              {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
               "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16,
               "vocab_size": 128, "max_position_embeddings": 64}),
    "gemma": ("GemmaDecoderLayer", "AutoModelForCausalLM",
              {"model_type": "gemma", "architectures": ["GemmaForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
               "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": 16,
               "vocab_size": 128, "max_position_embeddings": 64, "pad_token_id": 0, "bos_token_id": 2,
               "eos_token_id": 1}),
    "phi3": ("Phi3DecoderLayer", "AutoModelForCausalLM",
             {"model_type": "phi3", "architectures": ["Phi3ForCausalLM"], "hidden_size": 64, "intermediate_size": 128,
              "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 4, "vocab_size": 128,
              "max_position_embeddings": 64, "original_max_position_embeddings": 64, "pad_token_id": 0,
              "bos_token_id": 1, "eos_token_id": 2}),
    "gpt2": ("GPT2Block", "AutoModelForCausalLM",
             {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_embd": 64, "n_layer": 2, "n_head": 4,
              "vocab_size": 128, "n_positions": 64, "bos_token_id": 1, "eos_token_id": 1}),
    "bert": ("BertLayer", "AutoModelForMaskedLM",
             {"model_type": "bert", "architectures": ["BertForMaskedLM"], "hidden_size": 64, "num_hidden_layers": 2,
              "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 128, "max_position_embeddings": 64}),
    "xlm-roberta": ("XLMRobertaLayer", "AutoModelForMaskedLM",
                    {"model_type": "xlm-roberta", "architectures": ["XLMRobertaForMaskedLM"], "hidden_size": 64,
                     "num_hidden_layers": 2, "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 128,
                     "max_position_embeddings": 66, "pad_token_id": 1, "bos_token_id": 0, "eos_token_id": 2}),
}


def trainer_script(model_dir: str, auto_class: str, ta_extra: str = "", load: str = "") -> str:
    load_args = f'"{model_dir}"' + (", " + load if load else "")
    return (
        "import torch\n"
        f"from transformers import {auto_class}, Trainer, TrainingArguments\n\n"
        "args = TrainingArguments(\n"
        '    output_dir="out",\n'
        "    max_steps=1,\n"
        "    per_device_train_batch_size=2,\n"
        '    report_to="none",\n'
        '    save_strategy="no",\n'
        f"{ta_extra}"
        ")\n"
        f"model = {auto_class}.from_pretrained({load_args})\n"
        'data = [{"input_ids": torch.arange(16) % 100, "labels": torch.arange(16) % 100} for _ in range(4)]\n'
        "Trainer(model=model, args=args, train_dataset=data).train()\n"
        'print("ORACLE trained")\n'
    )


def fsdp_yaml(version: int, cls: str | None, extra: str = "", policy: str = "TRANSFORMER_BASED_WRAP") -> str:
    lines = [
        "compute_environment: LOCAL_MACHINE",
        "distributed_type: FSDP",
        "fsdp_config:",
        f"  fsdp_auto_wrap_policy: {policy}",
    ]
    if version == 1:
        lines += ["  fsdp_backward_prefetch: BACKWARD_PRE", "  fsdp_reshard_after_forward: FULL_SHARD",
                  "  fsdp_state_dict_type: FULL_STATE_DICT", "  fsdp_sync_module_states: true",
                  "  fsdp_use_orig_params: true"]
    else:
        lines += ["  fsdp_reshard_after_forward: true", "  fsdp_state_dict_type: FULL_STATE_DICT"]
    if cls is not None:
        lines.append(f"  fsdp_transformer_layer_cls_to_wrap: {cls}")
    lines.append(f"  fsdp_version: {version}")
    lines += [ln for ln in extra.splitlines() if ln]
    lines += ["machine_rank: 0", "mixed_precision: 'no'", "num_machines: 1", "num_processes: 1"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------------
# MDL001: the wrap class against real models of several architectures (accelerate launch, FSDP, 1 GPU)

def mdl_cases():
    def one(cid, arch, version, cls, expect, desc):
        layer, auto, cfg = TINY[arch]
        d = f"tiny-{arch}"
        add(cid, "mdl_wrap_class", ["MDL001"], expect, desc,
            {f"{d}/config.json": _cfg(cfg), "fsdp.yaml": fsdp_yaml(version, cls),
             "train.py": trainer_script(d, auto),
             "launch.sh": f"accelerate launch --config_file fsdp.yaml --main_process_port {port()} train.py\n"},
            "run", gpu=True, models=[{"path": d, "class": auto}])

    wrong = {"llama": "Qwen2DecoderLayer", "qwen2": "LlamaDecoderLayer", "mistral": "LlamaDecoderLayer",
             "qwen3": "Qwen2DecoderLayer", "gemma": "LlamaDecoderLayer", "phi3": "LlamaDecoderLayer",
             "gpt2": "LlamaDecoderLayer", "bert": "LlamaDecoderLayer"}
    for arch, bad in wrong.items():
        layer = TINY[arch][0]
        one(f"mdl-{arch}-v2-wrong", arch, 2, bad, "raises",
            f"FSDP2, {arch} model, wrap class {bad} (another family's layer)")
        one(f"mdl-{arch}-v2-right", arch, 2, layer, "runs", f"FSDP2, {arch} model, wrap class {layer}")
    for arch in ("qwen2", "gpt2", "mistral"):
        layer = TINY[arch][0]
        one(f"mdl-{arch}-v1-wrong", arch, 1, wrong[arch], "raises",
            f"FSDP1, {arch} model, wrap class {wrong[arch]}")
        one(f"mdl-{arch}-v1-right", arch, 1, layer, "runs", f"FSDP1, {arch} model, wrap class {layer}")
    one("mdl-llama-v2-old-capitals", "llama", 2, "LLaMADecoderLayer", "raises",
        "FSDP2, llama model, the pre-rename spelling LLaMADecoderLayer")
    one("mdl-qwen2-v2-list-mixed", "qwen2", 2, "Qwen2DecoderLayer,LlamaDecoderLayer", "raises",
        "FSDP2, qwen2 model, a comma list naming its layer and Llama's")
    one("mdl-xlm-roberta-v2-wrong", "xlm-roberta", 2, "BertLayer", "raises",
        "FSDP2, xlm-roberta model, wrap class BertLayer")
    one("mdl-xlm-roberta-v2-right", "xlm-roberta", 2, "XLMRobertaLayer", "runs",
        "FSDP2, xlm-roberta model, wrap class XLMRobertaLayer")
    one("mdl-qwen2-v2-no-cls", "qwen2", 2, None, "runs",
        "FSDP2, TRANSFORMER_BASED_WRAP without a class: the model's _no_split_modules decide")

    one("mdl-gemma-v2-gemma2-layer", "gemma", 2, "Gemma2DecoderLayer", "raises",
        "FSDP2, gemma model, wrap class Gemma2DecoderLayer (the next generation's layer)")
    one("mdl-llama-v2-ok-attention", "llama", 2, "LlamaAttention", "runs",
        "near-miss: FSDP2, llama model, wrap class LlamaAttention (a class the model has, not its decoder layer)")
    one("mdl-qwen2-v1-ok-mlp", "qwen2", 1, "Qwen2MLP", "runs",
        "near-miss: FSDP1, qwen2 model, wrap class Qwen2MLP (present in the model)")

    # FSDP019 through the accelerate config: FSDP2 activation checkpointing without a wrap policy.
    for cid, policy, cls, expect in (("fsdp19-yaml-v2-ac-nowrap", "NO_WRAP", None, "raises"),
                                     ("fsdp19-yaml-v2-ok-ac-transformer", "TRANSFORMER_BASED_WRAP",
                                      "Qwen2DecoderLayer", "runs")):
        layer, auto, cfg = TINY["qwen2"]
        add(cid, "mdl_wrap_class", ["FSDP019"], expect,
            f"FSDP2 + fsdp_activation_checkpointing: true + {policy} from the accelerate config, qwen2 model",
            {"tiny-qwen2/config.json": _cfg(cfg),
             "fsdp.yaml": fsdp_yaml(2, cls, "  fsdp_activation_checkpointing: true", policy=policy),
             "train.py": trainer_script("tiny-qwen2", auto),
             "launch.sh": f"accelerate launch --config_file fsdp.yaml --main_process_port {port()} train.py\n"},
            "run", gpu=True, models=[{"path": "tiny-qwen2", "class": auto}])

    # HF014 through the accelerate config: save_only_model with the plugin's state dict type.
    for cid, version, sd, expect, desc in (
            ("hf14-acc-v2-default-sd", 2, None, "raises",
             "save_only_model=True, accelerate FSDP2 config without fsdp_state_dict_type (FSDP2 default: SHARDED)"),
            ("hf14-acc-v1-sharded", 1, "SHARDED_STATE_DICT", "raises",
             "save_only_model=True, accelerate FSDP1 config with SHARDED_STATE_DICT"),
            ("hf14-acc-v2-ok-full", 2, "FULL_STATE_DICT", "runs",
             "near-miss: save_only_model=True, accelerate FSDP2 config with FULL_STATE_DICT")):
        layer, auto, cfg = TINY["qwen2"]
        yaml_text = fsdp_yaml(version, layer)
        yaml_text = yaml_text.replace("  fsdp_state_dict_type: FULL_STATE_DICT\n",
                                      f"  fsdp_state_dict_type: {sd}\n" if sd else "")
        add(cid, "mdl_wrap_class", ["HF014"], expect, desc,
            {"tiny-qwen2/config.json": _cfg(cfg), "fsdp.yaml": yaml_text,
             "train.py": trainer_script("tiny-qwen2", auto, "    save_only_model=True,\n"),
             "launch.sh": f"accelerate launch --config_file fsdp.yaml --main_process_port {29900 + len(CASES)} "
                           "train.py\n"},
            "run", gpu=True, models=[{"path": "tiny-qwen2", "class": auto}])

    # The Trainer's own fsdp_config (torchrun, one process).
    def tr(cid, arch, cls, expect, desc, version=None):
        layer, auto, cfg = TINY[arch]
        d = f"tiny-{arch}"
        fc = '{"transformer_layer_cls_to_wrap": ["%s"]%s}' % (cls, f', "version": {version}' if version else "")
        extra = f'    fsdp="full_shard auto_wrap",\n    fsdp_config={fc},\n'
        add(cid, "mdl_wrap_class", ["MDL001"], expect, desc,
            {f"{d}/config.json": _cfg(cfg), "train.py": trainer_script(d, auto, extra),
             "launch.sh": "torchrun --standalone --nproc_per_node 1 train.py\n"},
            "run", gpu=True, models=[{"path": d, "class": auto}])

    tr("mdl-tr-qwen2-wrong", "qwen2", "LlamaDecoderLayer", "raises",
       "Trainer fsdp_config names LlamaDecoderLayer, the model is Qwen2 (FSDP2 default)")
    tr("mdl-tr-qwen2-right", "qwen2", "Qwen2DecoderLayer", "runs", "Trainer fsdp_config names Qwen2DecoderLayer")
    tr("mdl-tr-mistral-wrong-v1", "mistral", "LlamaDecoderLayer", "raises",
       "Trainer fsdp_config (FSDP1) names LlamaDecoderLayer, the model is Mistral", version=1)
    tr("mdl-tr-gpt2-right-v1", "gpt2", "GPT2Block", "runs", "Trainer fsdp_config (FSDP1) names GPT2Block", version=1)


# ---------------------------------------------------------------------------------------------------------------
# Launch commands through the real launcher parsers (dry: nothing starts; the script runs with its arguments)

ARGPARSE_SCRIPT = (
    "import argparse\n\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--learning_rate", type=float, default=1e-4)\n'
    'parser.add_argument("--output_dir", default="out")\n'
    "args = parser.parse_args()\n"
    'print("ORACLE args", vars(args))\n'
)
HFPARSER_SCRIPT = (
    "from transformers import HfArgumentParser, TrainingArguments\n\n"
    "parser = HfArgumentParser(TrainingArguments)\n"
    "(args,) = parser.parse_args_into_dataclasses()\n"
    'print("ORACLE args", args.output_dir, args.learning_rate)\n'
)
KNOWN_ARGS_SCRIPT = (
    "import argparse\n\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--learning_rate", type=float, default=1e-4)\n'
    "args, _rest = parser.parse_known_args()\n"
    'print("ORACLE args", vars(args))\n'
)
OWN_NPROC_SCRIPT = (
    "import argparse\n\n"
    "parser = argparse.ArgumentParser()\n"
    'parser.add_argument("--learning_rate", type=float, default=1e-4)\n'
    'parser.add_argument("--num_processes", type=int, default=1)\n'
    "args = parser.parse_args()\n"
    'print("ORACLE args", vars(args))\n'
)
MULTI_GPU_YAML = (
    "compute_environment: LOCAL_MACHINE\n"
    "distributed_type: MULTI_GPU\n"
    "machine_rank: 0\n"
    "mixed_precision: bf16\n"
    "num_machines: 1\n"
    "num_processes: 2\n"
)


def launch_cases():
    def dry(cid, rules, expect, desc, launch, script=ARGPARSE_SCRIPT, extra=None, name="train.py", world=None):
        files = {"launch.sh": launch, name: script}
        files.update(extra or {})
        add(cid, "launch_command", rules, expect, desc, files, "dry", intended_world=world)

    # LCH001: launcher flags after the script.
    dry("lch1-acc-nproc-after", ["LCH001"], "raises", "accelerate launch train.py ... --num_processes 2",
        "accelerate launch train.py --learning_rate 2e-5 --num_processes 2\n", world=2)
    dry("lch1-acc-mp-after", ["LCH001"], "raises", "accelerate launch train.py --mixed_precision bf16",
        "accelerate launch --num_processes 1 train.py --mixed_precision bf16\n")
    dry("lch1-ok-mp-script-defines", ["LCH001"], "runs",
        "near-miss: --mixed_precision after the script, which defines it",
        "accelerate launch --num_processes 1 train.py --mixed_precision bf16\n",
        script=ARGPARSE_SCRIPT.replace('args = parser', 'parser.add_argument("--mixed_precision", default="no")\n'
                                                         'args = parser'))
    dry("lch1-acc-config-after", ["LCH001"], "raises", "accelerate launch train.py --config_file ddp.yaml",
        "accelerate launch train.py --config_file ddp.yaml --learning_rate 2e-5\n",
        extra={"ddp.yaml": MULTI_GPU_YAML})
    dry("lch1-acc-multigpu-after", ["LCH001"], "raises", "accelerate launch train.py --multi_gpu",
        "accelerate launch --num_processes 2 train.py --multi_gpu\n")
    dry("lch1-torchrun-nproc-after", ["LCH001"], "raises", "torchrun train.py --nproc_per_node 2",
        "torchrun train.py --nproc_per_node 2 --learning_rate 2e-5\n", world=2)
    dry("lch1-torchrun-nnodes-after", ["LCH001"], "raises", "torchrun --nproc_per_node 1 train.py --nnodes 1",
        "torchrun --nproc_per_node 1 train.py --nnodes 1\n")
    dry("lch1-hfparser-nproc-after", ["LCH001"], "raises",
        "accelerate launch train.py (HfArgumentParser) --num_processes 2",
        "accelerate launch train.py --output_dir out --num_processes 2\n", script=HFPARSER_SCRIPT, world=2)
    dry("lch1-ok-before", ["LCH001"], "runs", "near-miss: the flag before the script",
        "accelerate launch --num_processes 1 train.py --learning_rate 2e-5\n", world=1)
    dry("lch1-ok-torchrun-before", ["LCH001"], "runs", "near-miss: torchrun flag before the script",
        "torchrun --nproc_per_node 1 train.py --learning_rate 2e-5\n", world=1)
    dry("lch1-ok-script-defines", ["LCH001"], "runs",
        "near-miss: the script defines --num_processes itself",
        "accelerate launch --num_processes 1 train.py --num_processes 4\n", script=OWN_NPROC_SCRIPT)
    dry("lch1-known-args", ["LCH001"], "misbehaves",
        "the script uses parse_known_args: no error, the launcher never sees --num_processes 2 (one process)",
        "accelerate launch train.py --learning_rate 2e-5 --num_processes 2\n", script=KNOWN_ARGS_SCRIPT, world=2)

    # LCH002: python written as the script.
    dry("lch2-acc-python", ["LCH002"], "raises", "accelerate launch python train.py",
        "accelerate launch --num_processes 1 python train.py --learning_rate 2e-5\n")
    dry("lch2-acc-multigpu-python", ["LCH002"], "raises", "accelerate launch --multi_gpu python train.py",
        "accelerate launch --multi_gpu --num_processes 2 python train.py\n")
    dry("lch2-torchrun-python", ["LCH002"], "raises", "torchrun python train.py",
        "torchrun --nproc_per_node 1 python train.py\n")
    dry("lch2-torchrun-python3", ["LCH002"], "raises", "torchrun python3 train.py",
        "torchrun --standalone --nproc_per_node 1 python3 train.py --learning_rate 1e-5\n")
    dry("lch2-ok-torchrun-no-python", ["LCH002"], "runs", "near-miss: torchrun --no-python python train.py",
        "torchrun --nproc_per_node 1 --no-python python train.py\n")
    dry("lch2-ok-acc-no-python", ["LCH002"], "runs", "near-miss: accelerate launch --no_python python train.py",
        "accelerate launch --num_processes 1 --no_python python train.py\n")
    dry("lch2-ok-module", ["LCH002"], "runs", "near-miss: accelerate launch -m a module",
        "accelerate launch --num_processes 1 -m trainpkg.main --learning_rate 2e-5\n",
        extra={"trainpkg/__init__.py": "", "trainpkg/main.py": ARGPARSE_SCRIPT}, script="print('unused')\n")

    # LCH003: broken continuations.
    dry("lch3-trailing-space", ["LCH003"], "raises", "a backslash followed by a space (the script gets ' ')",
        "accelerate launch --num_processes 1 train.py \\ \n  --learning_rate 2e-5 \\\n  --output_dir out\n")
    dry("lch3-missing-backslash", ["LCH003"], "misbehaves", "a missing backslash before an option line",
        "torchrun --nproc_per_node 1 train.py \\\n  --learning_rate 2e-5\n  --output_dir out\n")
    dry("lch3-missing-before-script", ["LCH003"], "raises", "a missing backslash before the script line",
        "accelerate launch --num_processes 1\n  train.py --learning_rate 2e-5\n")
    dry("lch3-ok-continued", ["LCH003"], "runs", "near-miss: every line continued",
        "accelerate launch --num_processes 1 train.py \\\n  --learning_rate 2e-5 \\\n  --output_dir out\n")
    dry("lch3-ok-and-list", ["LCH003"], "runs", "near-miss: a line ending in && (a list, not arguments)",
        "cd . &&\n  accelerate launch --num_processes 1 train.py --learning_rate 2e-5\n")

    # LCH004: unquoted path with a space.
    dry("lch4-config-space", ["LCH004"], "raises", "--config_file my configs/ddp.yaml unquoted",
        "accelerate launch --config_file my configs/ddp.yaml train.py\n",
        extra={"my configs/ddp.yaml": MULTI_GPU_YAML})
    dry("lch4-ok-quoted", ["LCH004"], "runs", "near-miss: the same path quoted (one process config)",
        'accelerate launch --config_file "my configs/one.yaml" train.py\n',
        extra={"my configs/one.yaml": MULTI_GPU_YAML.replace("MULTI_GPU", "'NO'").replace("num_processes: 2",
                                                                                       "num_processes: 1")})
    dry("lch4-script-space", ["LCH004"], "raises", "an unquoted script path with a space",
        "torchrun --nproc_per_node 1 my scripts/train.py --learning_rate 2e-5\n", name="my scripts/train.py")

    # LCH005 / ACC005 / ACC010: process counts.
    def yaml_cfg(dt, nproc, nmach=1, extra=""):
        return (f"compute_environment: LOCAL_MACHINE\ndistributed_type: {dt}\n{extra}machine_rank: 0\n"
                "main_process_ip: 10.0.0.1\nmain_process_port: 29500\nmixed_precision: bf16\n"
                f"num_machines: {nmach}\nnum_processes: {nproc}\n")

    def cfgcase(cid, rules, expect, desc, cfg, flags=""):
        dry(cid, rules, expect, desc, f"accelerate launch --config_file cfg.yaml {flags}train.py\n",
            extra={"cfg.yaml": cfg})

    cfgcase("lch5-6-on-4", ["LCH005"], "misbehaves", "num_processes 6 on 4 machines", yaml_cfg("MULTI_GPU", 6, 4))
    cfgcase("lch5-2-on-4", ["LCH005"], "misbehaves", "num_processes 2 on 4 machines (0 per machine)",
            yaml_cfg("MULTI_GPU", 2, 4))
    cfgcase("lch5-fsdp-12-on-8", ["LCH005"], "misbehaves", "FSDP, num_processes 12 on 8 machines",
            yaml_cfg("FSDP", 12, 8, "fsdp_config:\n  fsdp_version: 2\n"))
    cfgcase("lch5-ok-16-on-2", ["LCH005"], "runs", "near-miss: 16 on 2 machines", yaml_cfg("MULTI_GPU", 16, 2))
    cfgcase("lch5-ok-8-on-1", ["LCH005"], "runs", "near-miss: 8 on 1 machine", yaml_cfg("MULTI_GPU", 8, 1))
    dry("lch5-cli-6-on-4", ["LCH005"], "misbehaves", "--num_processes 6 --num_machines 4 on the command line",
        "accelerate launch --multi_gpu --num_processes 6 --num_machines 4 --machine_rank 0 "
        "--main_process_ip 10.0.0.1 --main_process_port 29500 train.py\n")
    cfgcase("acc10-no-4", ["ACC010"], "misbehaves", "distributed_type NO with num_processes 4",
            yaml_cfg("'NO'", 4))
    cfgcase("acc10-ok-no-1", ["ACC010"], "runs", "near-miss: NO with 1 process", yaml_cfg("'NO'", 1))
    cfgcase("acc10-ok-flag", ["ACC010"], "runs", "near-miss: NO in the file, --multi_gpu on the command line",
            yaml_cfg("'NO'", 4), flags="--multi_gpu ")
    cfgcase("acc5-one-id", ["ACC005"], "raises", "MULTI_GPU, 2 processes, gpu_ids '0'",
            yaml_cfg("MULTI_GPU", 2, extra="gpu_ids: '0'\n"))
    cfgcase("acc5-three-ids", ["ACC005"], "misbehaves", "MULTI_GPU, 2 processes, gpu_ids '0,1,2'",
            yaml_cfg("MULTI_GPU", 2, extra="gpu_ids: 0,1,2\n"))
    cfgcase("acc5-ok-two-ids", ["ACC005"], "runs", "near-miss: 2 processes, gpu_ids 0,1",
            yaml_cfg("MULTI_GPU", 2, extra="gpu_ids: 0,1\n"))
    cfgcase("acc5-ok-all", ["ACC005"], "runs", "near-miss: gpu_ids all", yaml_cfg("MULTI_GPU", 4, extra="gpu_ids: all\n"))
    dry("acc5-cli-one-id", ["ACC005"], "misbehaves",
        "--multi_gpu --num_processes 2 --gpu_ids 0 (accelerate checks the id count only in a config file)",
        "accelerate launch --multi_gpu --num_processes 2 --gpu_ids 0 train.py\n")
    dry("acc5-cli-ok-two-ids", ["ACC005"], "runs", "near-miss: --multi_gpu --num_processes 2 --gpu_ids 0,1",
        "accelerate launch --multi_gpu --num_processes 2 --gpu_ids 0,1 train.py\n")
    dry("acc5-cli-three-ids", ["ACC005"], "misbehaves", "--multi_gpu --num_processes 2 --gpu_ids 0,1,2",
        "accelerate launch --multi_gpu --num_processes 2 --gpu_ids 0,1,2 train.py\n")

    # LCH007: the legacy launcher appends --local-rank.
    dry("lch7-legacy-launch", ["LCH007"], "raises",
        "python -m torch.distributed.launch, argparse script without --local-rank",
        "python -m torch.distributed.launch --nproc_per_node 1 train.py --learning_rate 2e-5\n")
    dry("lch7-ok-defines-local-rank", ["LCH007"], "runs", "near-miss: the script defines --local-rank",
        "python -m torch.distributed.launch --nproc_per_node 1 train.py\n",
        script=ARGPARSE_SCRIPT.replace('args = parser', 'parser.add_argument("--local-rank", type=int, default=0)\n'
                                                         'args = parser'))
    dry("lch7-underscore-only", ["LCH007"], "raises",
        "the script defines --local_rank (underscore) only; the launcher passes --local-rank",
        "python -m torch.distributed.launch --nproc_per_node 1 train.py\n",
        script=ARGPARSE_SCRIPT.replace('args = parser', 'parser.add_argument("--local_rank", type=int, default=0)\n'
                                                        'args = parser'))
    dry("lch7-ok-use-env", ["LCH007"], "runs", "near-miss: torch.distributed.launch --use-env",
        "python -m torch.distributed.launch --use-env --nproc_per_node 1 train.py\n")
    dry("lch7-ok-torchrun", ["LCH007"], "runs", "near-miss: torchrun sets LOCAL_RANK only",
        "torchrun --nproc_per_node 1 train.py\n")
    dry("lch7-ok-hfparser", ["LCH007"], "runs", "near-miss: HfArgumentParser script (TrainingArguments has --local_rank)",
        "python -m torch.distributed.launch --nproc_per_node 1 train.py --output_dir out\n", script=HFPARSER_SCRIPT)

    # LCH013: an option the script's one argparse parser does not define (argparse exits with "unrecognized
    # arguments"); near-misses: a unique abbreviation (argparse accepts it), parse_known_args, an HfArgumentParser
    # field.
    dry("lch13-undefined-option", ["LCH013"], "raises", "torchrun, argparse script without --lora_rank",
        "torchrun --nproc_per_node 1 train.py --learning_rate 2e-5 --lora_rank 8\n")
    dry("lch13-undefined-option-python", ["LCH013"], "raises", "python, argparse script without --num_epochs",
        "python train.py --num_epochs 3\n")
    dry("lch13-ok-abbreviation", ["LCH013"], "runs", "near-miss: --learning (a unique abbreviation of --learning_rate)",
        "torchrun --nproc_per_node 1 train.py --learning 2e-5\n")
    dry("lch13-ok-known-args", ["LCH013"], "runs", "near-miss: the script parses with parse_known_args",
        "torchrun --nproc_per_node 1 train.py --lora_rank 8\n", script=KNOWN_ARGS_SCRIPT)
    dry("lch13-ok-hfparser-field", ["LCH013"], "runs", "near-miss: HfArgumentParser script, a TrainingArguments field",
        "torchrun --nproc_per_node 1 train.py --output_dir out --num_train_epochs 1\n", script=HFPARSER_SCRIPT)



# ---------------------------------------------------------------------------------------------------------------
# Multi-node rendezvous (dry: torch's torchrun argument handling, accelerate's prepare_multi_gpu_env)

def rendezvous_cases():
    def dry(cid, expect, desc, launch, extra=None):
        files = {"launch.sh": launch, "train.py": ARGPARSE_SCRIPT}
        files.update(extra or {})
        # What a cluster's job script would have set on the first node.
        add(cid, "rendezvous", ["LCH010"], expect, desc, files, "dry",
            env={"NODE_RANK": "0", "MASTER_ADDR": "10.0.0.1", "HEAD_NODE": "10.0.0.1"})

    dry("lch10-torchrun-nnodes-no-endpoint", "misbehaves", "torchrun --nnodes 2 without --rdzv-endpoint or --master-addr",
        "torchrun --nnodes 2 --nproc_per_node 8 --node_rank $NODE_RANK train.py\n")
    dry("lch10-torchrun-c10d-no-endpoint", "misbehaves", "torchrun --nnodes 2 --rdzv-backend c10d without an endpoint",
        "torchrun --nnodes 2 --nproc_per_node 8 --rdzv-backend c10d --rdzv-id job1 train.py\n")
    dry("lch10-torchrun-standalone-nnodes", "misbehaves", "torchrun --standalone --nnodes 2",
        "torchrun --standalone --nnodes 2 --nproc_per_node 8 train.py\n")
    dry("lch10-ok-torchrun-endpoint", "runs", "near-miss: torchrun --nnodes 2 --rdzv-endpoint $HEAD:29500",
        "torchrun --nnodes 2 --nproc_per_node 8 --rdzv-backend c10d --rdzv-endpoint $HEAD_NODE:29500 train.py\n")
    dry("lch10-ok-torchrun-master-addr", "runs", "near-miss: torchrun --nnodes 2 --master_addr $MASTER_ADDR",
        "torchrun --nnodes 2 --nproc_per_node 8 --node_rank $NODE_RANK --master_addr $MASTER_ADDR train.py\n")
    dry("lch10-ok-torchrun-one-node", "runs", "near-miss: torchrun --nnodes 1",
        "torchrun --nnodes 1 --nproc_per_node 8 train.py\n")
    two_machines = ("compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmachine_rank: 0\n"
                    "num_machines: 2\nnum_processes: 16\n")
    dry("lch10-acc-no-main-process-ip", "misbehaves", "accelerate config num_machines 2 without main_process_ip",
        "accelerate launch --config_file multi.yaml train.py\n", {"multi.yaml": two_machines})
    dry("lch10-acc-same-network-no-ip", "misbehaves", "num_machines 2, same_network, no main_process_ip",
        "accelerate launch --config_file multi.yaml train.py\n",
        {"multi.yaml": two_machines + "same_network: true\nmain_process_port: 29500\n"})
    dry("lch10-ok-acc-main-process-ip", "runs", "near-miss: num_machines 2 with main_process_ip",
        "accelerate launch --config_file multi.yaml train.py\n",
        {"multi.yaml": two_machines + "main_process_ip: 10.0.0.1\nmain_process_port: 29500\n"})
    add("lch1-acc-store-true-with-value", "rendezvous", ["LCH001"], "raises",
        "--same_network true (a flag without a value): `true` becomes the script, the launcher flags after it go to it",
        {"launch.sh": "accelerate launch --num_processes 16 --num_machines 2 --multi_gpu --same_network true "
                      "--main_process_ip 10.0.0.1 --main_process_port 29500 train.py\n",
         "train.py": ARGPARSE_SCRIPT}, "dry")
    dry("lch10-ok-acc-ip-flag", "runs", "near-miss: main_process_ip on the command line",
        "accelerate launch --config_file multi.yaml --main_process_ip $MASTER_ADDR train.py\n",
        {"multi.yaml": two_machines})

# ---------------------------------------------------------------------------------------------------------------
# The `deepspeed` launcher (dry: DeepSpeed's runner and launch modules on the recorded command; a node of 8 GPUs)

def deepspeed_launcher_cases():
    def dry(cid, rules, expect, desc, launch, script=ARGPARSE_SCRIPT, extra=None):
        files = {"launch.sh": launch, "train.py": script}
        files.update(extra or {})
        add(cid, "deepspeed_launcher", rules, expect, desc, files, "dry")

    local_rank_script = ARGPARSE_SCRIPT.replace(
        "args = parser", 'parser.add_argument("--local_rank", type=int, default=-1)\nargs = parser')
    # LCH006: CUDA_VISIBLE_DEVICES with resource flags is dropped.
    dry("lch6-cvd-num-gpus", ["LCH006"], "misbehaves",
        "CUDA_VISIBLE_DEVICES=2,3 deepspeed --num_gpus 2 (the launcher drops the variable and takes GPUs 0,1)",
        "CUDA_VISIBLE_DEVICES=2,3 deepspeed --num_gpus 2 train.py\n", script=local_rank_script)
    dry("lch6-cvd-exported-num-gpus", ["LCH006"], "misbehaves",
        "export CUDA_VISIBLE_DEVICES=4,5, then deepspeed --num_gpus=2",
        "export CUDA_VISIBLE_DEVICES=4,5\ndeepspeed --num_gpus=2 train.py\n", script=local_rank_script)
    dry("lch6-ok-cvd-alone", ["LCH006"], "runs",
        "near-miss: CUDA_VISIBLE_DEVICES=2,3 deepspeed (no resource flag: it becomes --include localhost:2,3)",
        "CUDA_VISIBLE_DEVICES=2,3 deepspeed train.py\n", script=local_rank_script)
    dry("lch6-ok-include", ["LCH006"], "runs", "near-miss: deepspeed --include localhost:2,3",
        "deepspeed --include localhost:2,3 train.py\n", script=local_rank_script)
    # LCH007, the DeepSpeed side: the launcher appends --local_rank=N unless --no_local_rank.
    dry("lch7-ds-argparse", ["LCH007"], "raises",
        "deepspeed launcher, argparse script without --local_rank",
        "deepspeed --num_gpus 1 train.py --learning_rate 2e-5\n")
    dry("lch7-ds-ok-no-local-rank", ["LCH007"], "runs", "near-miss: deepspeed --no_local_rank",
        "deepspeed --num_gpus 1 --no_local_rank train.py --learning_rate 2e-5\n")
    dry("lch7-ds-ok-defines", ["LCH007"], "runs", "near-miss: the script defines --local_rank",
        "deepspeed --num_gpus 1 train.py --learning_rate 2e-5\n", script=local_rank_script)
    # LCH009: resource filters the launcher rejects.
    hostfile = {"hostfile": "worker-1 slots=4\n"}
    dry("lch9-include-and-num-gpus", ["LCH009"], "raises", "deepspeed --include localhost:0,1 --num_gpus 2",
        "deepspeed --include localhost:0,1 --num_gpus 2 train.py\n", script=local_rank_script)
    dry("lch9-include-and-exclude", ["LCH009"], "raises", "deepspeed --include localhost:0,1 --exclude localhost:1",
        "deepspeed --include localhost:0,1 --exclude localhost:1 train.py\n", script=local_rank_script)
    dry("lch9-host-not-in-hostfile", ["LCH009"], "raises", "-H hostfile --include worker-2:0,1 (not in the hostfile)",
        "deepspeed -H hostfile --include worker-2:0,1 train.py\n", script=local_rank_script, extra=hostfile)
    dry("lch9-slot-beyond-hostfile", ["LCH009"], "raises", "-H hostfile --include worker-1:4,5 (the host has 4 slots)",
        "deepspeed -H hostfile --include worker-1:4,5 train.py\n", script=local_rank_script, extra=hostfile)
    dry("lch9-exclude-slot-beyond-hostfile", ["LCH009"], "raises", "-H hostfile --exclude worker-1:5 (the host has 4 slots)",
        "deepspeed -H hostfile --exclude worker-1:5 train.py\n", script=local_rank_script, extra=hostfile)
    dry("lch9-ok-hostfile-include", ["LCH009"], "runs", "near-miss: -H hostfile --include worker-1:2,3",
        "deepspeed -H hostfile --include worker-1:2,3 train.py\n", script=local_rank_script, extra=hostfile)
    dry("lch9-ok-exclude", ["LCH009"], "runs", "near-miss: deepspeed --exclude localhost:0",
        "deepspeed --exclude localhost:0 train.py\n", script=local_rank_script)
    # LCH010, the deepspeed launcher: --num_nodes > 1 finds the other nodes only in a hostfile.
    dry("lch10-ds-num-nodes-no-hostfile", ["LCH010"], "raises", "deepspeed --num_nodes 2 without a hostfile",
        "deepspeed --num_nodes 2 --num_gpus 1 train.py\n", script=local_rank_script)
    dry("lch10-ds-ok-one-node", ["LCH010"], "runs", "near-miss: deepspeed --num_nodes 1 without a hostfile",
        "deepspeed --num_nodes 1 --num_gpus 1 train.py\n", script=local_rank_script)

# ---------------------------------------------------------------------------------------------------------------
# TrainingArguments / HfArgumentParser (CPU, `python train.py`)

def ta_script(kwargs: str, cls: str = "TrainingArguments") -> str:
    return (f"from transformers import {cls}\n\n"
            f'args = {cls}(output_dir="out", {kwargs})\n'
            'print("ORACLE built", args.fsdp if hasattr(args, "fsdp") else None)\n')


def hf_cases():
    def ta(cid, rules, expect, desc, kwargs, cls="TrainingArguments"):
        add(cid, "training_args", rules, expect, desc,
            {"launch.sh": "python train.py\n", "train.py": ta_script(kwargs, cls)}, "run")

    def parser(cid, rules, expect, desc, argv):
        add(cid, "training_args", rules, expect, desc,
            {"launch.sh": f"python train.py --output_dir out {argv}\n", "train.py": HFPARSER_SCRIPT}, "run")

    # HF015: both precisions for one Trainer (the GPU visible, so that no device check comes first).
    def hf15(cid, expect, desc, kwargs):
        add(cid, "training_args", ["HF015"], expect, desc,
            {"launch.sh": "python train.py\n", "train.py": ta_script(kwargs)}, "run", gpu=True)

    hf15("hf15-fp16-and-bf16", "raises", "TrainingArguments(fp16=True, bf16=True)", "fp16=True, bf16=True")
    hf15("hf15-full-eval-both", "raises", "TrainingArguments(fp16_full_eval=True, bf16_full_eval=True)",
         "fp16_full_eval=True, bf16_full_eval=True")
    hf15("hf15-ok-bf16-only", "runs", "near-miss: bf16=True alone", "bf16=True")
    hf15("hf15-ok-fp16-false", "runs", "near-miss: fp16=False, bf16=True", "fp16=False, bf16=True")
    hf15("hf15-ok-bf16-and-fp16-full-eval", "runs", "near-miss: bf16=True with fp16_full_eval=True (another pair)",
         "bf16=True, fp16_full_eval=True")

    # HF004
    ta("hf4-hybrid-auto-wrap", ["HF004"], "raises", "fsdp='hybrid_shard auto_wrap', FSDP2 default",
       'fsdp="hybrid_shard auto_wrap"')
    ta("hf4-hybrid-zero2-v2", ["HF004"], "raises", "fsdp='hybrid_shard_zero2 auto_wrap', version 2",
       'fsdp="hybrid_shard_zero2 auto_wrap", fsdp_config={"version": 2}')
    ta("hf4-upper-full-shard", ["HF004"], "raises", "fsdp='FULL_SHARD' (upper case)", 'fsdp="FULL_SHARD"')
    ta("hf4-no-shard-cls", ["HF004"], "raises", "fsdp='no_shard auto_wrap' with a wrap class",
       'fsdp="no_shard auto_wrap", fsdp_config={"transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"]}')
    ta("hf4-list-hybrid", ["HF004"], "raises", "fsdp as a list ['hybrid_shard', 'auto_wrap']",
       'fsdp=["hybrid_shard", "auto_wrap"]')
    ta("hf4-ok-full-shard-offload", ["HF004"], "runs", "near-miss: fsdp='full_shard offload auto_wrap'",
       'fsdp="full_shard offload auto_wrap"')
    ta("hf4-ok-shard-grad-op", ["HF004"], "runs", "near-miss: fsdp='shard_grad_op auto_wrap'",
       'fsdp="shard_grad_op auto_wrap"')
    ta("hf4-ok-hybrid-fsdp-version-1", ["HF004"], "runs", "near-miss: hybrid_shard with fsdp_config fsdp_version 1",
       'fsdp="hybrid_shard auto_wrap", fsdp_config={"fsdp_version": 1}')
    ta("hf4-ok-true", ["HF004"], "runs", "near-miss: fsdp=True", "fsdp=True")
    parser("hf4-cli-hybrid", ["HF004"], "raises", "--fsdp 'hybrid_shard auto_wrap' through HfArgumentParser",
           "--fsdp 'hybrid_shard auto_wrap'")
    parser("hf4-cli-ok-full", ["HF004"], "runs", "near-miss: --fsdp 'full_shard auto_wrap'",
           "--fsdp 'full_shard auto_wrap'")

    # HF008
    ta("hf8-evaluation-strategy", ["HF008"], "raises", "TrainingArguments(evaluation_strategy=...)",
       'evaluation_strategy="steps"')
    ta("hf8-seq2seq-evaluation-strategy", ["HF008"], "raises", "Seq2SeqTrainingArguments(evaluation_strategy=...)",
       'evaluation_strategy="epoch", save_strategy="epoch"', cls="Seq2SeqTrainingArguments")
    ta("hf8-fsdp-min-num-params", ["HF008"], "raises", "TrainingArguments(fsdp_min_num_params=...)",
       'fsdp="full_shard auto_wrap", fsdp_min_num_params=100000')
    ta("hf8-fsdp-cls-kwarg", ["HF008"], "raises", "TrainingArguments(fsdp_transformer_layer_cls_to_wrap=...)",
       'fsdp="full_shard auto_wrap", fsdp_transformer_layer_cls_to_wrap="LlamaDecoderLayer"')
    parser("hf8-cli-evaluation-strategy", ["HF008"], "raises", "--evaluation_strategy steps (HfArgumentParser)",
           "--evaluation_strategy steps")
    parser("hf8-cli-fsdp-cls", ["HF008"], "raises", "--fsdp_transformer_layer_cls_to_wrap (HfArgumentParser)",
           "--fsdp 'full_shard auto_wrap' --fsdp_transformer_layer_cls_to_wrap LlamaDecoderLayer")
    ta("hf8-ok-eval-strategy", ["HF008"], "runs", "near-miss: eval_strategy", 'eval_strategy="steps"')
    parser("hf8-cli-ok-eval-strategy", ["HF008"], "runs", "near-miss: --eval_strategy steps", "--eval_strategy steps")

    # HF011
    parser("hf11-cli-epoch-vs-steps", ["HF011"], "raises", "--load_best_model_at_end --eval_strategy epoch",
           "--load_best_model_at_end --eval_strategy epoch")
    parser("hf11-cli-steps-not-multiple", ["HF011"], "raises", "save_steps 500, eval_steps 300",
           "--load_best_model_at_end --eval_strategy steps --eval_steps 300 --save_steps 500")
    parser("hf11-cli-ok-epoch", ["HF011"], "runs", "near-miss: epoch / epoch",
           "--load_best_model_at_end --eval_strategy epoch --save_strategy epoch")
    ta("hf11-defaults", ["HF011"], "raises", "load_best_model_at_end alone (eval 'no', save 'steps')",
       "load_best_model_at_end=True")
    ta("hf11-ok-best", ["HF011"], "runs", "near-miss: save_strategy='best'",
       'load_best_model_at_end=True, eval_strategy="epoch", save_strategy="best", metric_for_best_model="loss"')
    ta("hf11-seq2seq-steps", ["HF011"], "raises", "Seq2Seq: save_steps 1000, eval_steps 300",
       'load_best_model_at_end=True, eval_strategy="steps", eval_steps=300, save_steps=1000',
       cls="Seq2SeqTrainingArguments")
    ta("hf11-ok-steps-multiple", ["HF011"], "runs", "near-miss: save_steps 600, eval_steps 200",
       'load_best_model_at_end=True, eval_strategy="steps", eval_steps=200, save_steps=600')

    # FSDP005 / HF via the Trainer's fsdp_config
    ta("hf-fsdp2-size-wrap-str", ["FSDP005"], "raises", "fsdp_config min_num_params as the string '1e6'",
       'fsdp=True, fsdp_config={"auto_wrap_policy": "SIZE_BASED_WRAP", "min_num_params": "1e6"}')

    # YAML typing through HfArgumentParser.parse_yaml_file (consumer keeps the string)
    yscript = ("import sys\n\nimport torch\n"
               "from transformers import HfArgumentParser, TrainingArguments\n\n"
               "parser = HfArgumentParser(TrainingArguments)\n"
               "(args,) = parser.parse_yaml_file(sys.argv[1])\n"
               "model = torch.nn.Linear(4, 4)\n"
               "optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)\n"
               'print("ORACLE lr", repr(args.learning_rate))\n')
    for cid, val, expect in (("yml-hfparser-lr-6e-06", "6e-06", "raises"), ("yml-hfparser-lr-2e-5", "2e-5", "raises"),
                             ("yml-hfparser-ok-lr-6.0e-06", "6.0e-06", "runs"),
                             ("yml-hfparser-ok-lr-0.00002", "0.00002", "runs")):
        add(cid, "yaml_typing", ["YML001"], expect,
            f"learning_rate: {val} in a YAML read by HfArgumentParser.parse_yaml_file, then the optimizer",
            {"launch.sh": "python train.py args.yaml\n", "train.py": yscript,
             "args.yaml": f"output_dir: out\nlearning_rate: {val}\nnum_train_epochs: 1\n"}, "run")


# ---------------------------------------------------------------------------------------------------------------
# FSDP013: DDP arguments passed to FSDP constructors (CPU)

def fsdp13_cases():
    def py(cid, expect, desc, body):
        add(cid, "fsdp_kwargs", ["FSDP013"], expect, desc,
            {"launch.sh": "python train.py\n", "train.py": body + 'print("ORACLE built")\n'}, "run")

    py("fsdp13-fsdp1-bucket-cap", "raises", "FullyShardedDataParallel(model, bucket_cap_mb=50)",
       "import torch\nfrom torch.distributed.fsdp import FullyShardedDataParallel as FSDP\n\n"
       "model = FSDP(torch.nn.Linear(4, 4), use_orig_params=True, bucket_cap_mb=50)\n")
    py("fsdp13-fsdp1-find-unused", "raises", "FullyShardedDataParallel(model, find_unused_parameters=False)",
       "import torch\nfrom torch.distributed.fsdp import FullyShardedDataParallel as FSDP\n\n"
       "model = FSDP(torch.nn.Linear(4, 4), find_unused_parameters=False)\n")
    py("fsdp13-fully-shard-static-graph", "raises", "fully_shard(model, static_graph=True)",
       "import torch\nfrom torch.distributed.fsdp import fully_shard\n\n"
       "model = torch.nn.Linear(4, 4)\nfully_shard(model, static_graph=True)\n")
    py("fsdp13-plugin-broadcast-buffers", "raises", "FullyShardedDataParallelPlugin(broadcast_buffers=False)",
       "from accelerate import FullyShardedDataParallelPlugin\n\n"
       "plugin = FullyShardedDataParallelPlugin(fsdp_version=2, broadcast_buffers=False)\n")
    py("fsdp13-plugin-gradient-as-bucket-view", "raises",
       "FullyShardedDataParallelPlugin(gradient_as_bucket_view=True)",
       "from accelerate import FullyShardedDataParallelPlugin\n\n"
       "plugin = FullyShardedDataParallelPlugin(gradient_as_bucket_view=True)\n")
    py("fsdp13-ok-plugin", "runs", "near-miss: FullyShardedDataParallelPlugin(use_orig_params=True)",
       "from accelerate import FullyShardedDataParallelPlugin\n\n"
       "plugin = FullyShardedDataParallelPlugin(fsdp_version=1, use_orig_params=True)\n")
    py("fsdp13-ok-ddp-kwargs", "runs", "near-miss: the DDP arguments given to DistributedDataParallelKwargs",
       "from accelerate.utils import DistributedDataParallelKwargs\n\n"
       "kwargs = DistributedDataParallelKwargs(bucket_cap_mb=50, find_unused_parameters=False)\n")


# ---------------------------------------------------------------------------------------------------------------
# TRL configs and trainers (CPU; TRL 1.10.0.dev0 source, commit f2cd577)

def trl_cases():
    def grpo(cid, expect, desc, kwargs):
        add(cid, "trl", ["HF010"], expect, desc,
            {"launch.sh": "python train_grpo.py\n",
             "train_grpo.py": "from trl import GRPOConfig\n\n"
                              f'args = GRPOConfig(output_dir="out", {kwargs})\n'
                              'print("ORACLE generation_batch_size", args.generation_batch_size)\n'}, "run")

    grpo("hf10-pdb1", "raises", "GRPOConfig per_device_train_batch_size=1, 8 generations, one process",
         "per_device_train_batch_size=1")
    grpo("hf10-pdb3-gen4", "raises", "per-device batch 3, num_generations 4", "per_device_train_batch_size=3, num_generations=4")
    grpo("hf10-gen1", "raises", "num_generations=1", "per_device_train_batch_size=4, num_generations=1")
    grpo("hf10-genbatch6-gen4", "raises", "generation_batch_size=6, num_generations 4",
         "per_device_train_batch_size=2, generation_batch_size=6, num_generations=4")
    grpo("hf10-ok-pdb8", "runs", "near-miss: per-device batch 8, 8 generations", "per_device_train_batch_size=8")
    grpo("hf10-ok-ga8", "runs", "near-miss: per-device batch 1, accumulation 8",
         "per_device_train_batch_size=1, gradient_accumulation_steps=8")
    grpo("hf10-ok-pdb4-gen4", "runs", "near-miss: per-device batch 4, num_generations 4",
         "per_device_train_batch_size=4, num_generations=4")

    def trainer(cid, expect, desc, body):
        add(cid, "trl", ["HF012"], expect, desc,
            {"launch.sh": "python train.py\n", "train.py": body + 'print("ORACLE built")\n'}, "run")

    trainer("hf12-sft-dataset-text-field", "raises", "SFTTrainer(dataset_text_field=...)",
            "from transformers import TrainingArguments\nfrom trl import SFTTrainer\n\n"
            'trainer = SFTTrainer(model="tiny-llama", args=TrainingArguments(output_dir="out"), '
            'dataset_text_field="text")\n')
    trainer("hf12-sft-max-seq-length", "raises", "SFTTrainer(max_seq_length=...)",
            "from trl import SFTConfig, SFTTrainer\n\n"
            'trainer = SFTTrainer(model="tiny-llama", args=SFTConfig(output_dir="out"), max_seq_length=512)\n')
    trainer("hf12-sft-tokenizer", "raises", "SFTTrainer(tokenizer=...)",
            "from trl import SFTConfig, SFTTrainer\n\n"
            'trainer = SFTTrainer(model="tiny-llama", args=SFTConfig(output_dir="out"), tokenizer=None)\n')
    trainer("hf12-dpo-beta", "raises", "DPOTrainer(beta=...)",
            "from trl import DPOConfig, DPOTrainer\n\n"
            'trainer = DPOTrainer(model="tiny-llama", args=DPOConfig(output_dir="out"), beta=0.1)\n')
    trainer("hf12-ok-sft-config", "runs", "near-miss: the same settings in SFTConfig",
            "from trl import SFTConfig\n\n"
            'config = SFTConfig(output_dir="out", dataset_text_field="text", max_length=512)\n')
    trainer("hf12-ok-dpo-config", "runs", "near-miss: beta in DPOConfig",
            "from trl import DPOConfig\n\n"
            'config = DPOConfig(output_dir="out", beta=0.1)\n')


# ---------------------------------------------------------------------------------------------------------------
# Lightning 2.6 (GPU, one device) and SLURM (CPU, srun's variables for rank 0)

LIGHTNING_MODULE = (
    "import torch\n"
    "import lightning as L\n"
    "from torch.utils.data import DataLoader, TensorDataset\n\n\n"
    "class Tiny(L.LightningModule):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.net = torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))\n\n"
    "    def training_step(self, batch, batch_idx):\n"
    "        return self.net(batch[0]).pow(2).mean()\n\n"
    "    def configure_optimizers(self):\n"
    "        return torch.optim.AdamW(self.parameters(), lr=1e-3)\n\n\n"
    "data = DataLoader(TensorDataset(torch.randn(8, 16)), batch_size=2)\n"
)
PL_QUIET = "max_steps=1, logger=False, enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False"


def lightning_cases():
    def pl(cid, rules, expect, desc, strategy, trainer_kw, after="", imports=""):
        body = (LIGHTNING_MODULE + imports +
                f"trainer = L.Trainer(accelerator=\"gpu\", devices=1, strategy={strategy}, {trainer_kw}{PL_QUIET})\n"
                "trainer.fit(Tiny(), data)\n" + after + 'print("ORACLE fitted")\n')
        add(cid, "lightning", rules, expect, desc, {"launch.sh": "python train.py\n", "train.py": body}, "run",
            gpu=True, timeout=120)

    fsdp_imp = "from lightning.pytorch.strategies import FSDPStrategy\n\n"
    pl("pl1-clip-norm-default", ["PL001"], "raises", "FSDPStrategy() + gradient_clip_val=1.0 (norm by default)",
       "FSDPStrategy()", "gradient_clip_val=1.0, ", imports=fsdp_imp)
    pl("pl1-clip-norm-explicit", ["PL001"], "raises", "FSDPStrategy() + gradient_clip_algorithm='norm'",
       "FSDPStrategy()", 'gradient_clip_val=0.5, gradient_clip_algorithm="norm", ', imports=fsdp_imp)
    pl("pl1-clip-norm-string-strategy", ["PL001"], "raises", "strategy='fsdp' + gradient_clip_val=1.0",
       '"fsdp"', "gradient_clip_val=1.0, ")
    pl("pl1-ok-clip-value", ["PL001"], "runs", "near-miss: gradient_clip_algorithm='value'",
       "FSDPStrategy()", 'gradient_clip_val=1.0, gradient_clip_algorithm="value", ', imports=fsdp_imp)
    pl("pl1-ok-no-clip", ["PL001"], "runs", "near-miss: no clipping", "FSDPStrategy()", "", imports=fsdp_imp)
    pl("pl1-ok-ddp-clip-norm", ["PL001"], "runs", "near-miss: DDP + clipping by norm", '"ddp"',
       "gradient_clip_val=1.0, ")
    save = 'trainer.save_checkpoint("ckpt")\n'
    pl("pl2-sharded-state-dict", ["PL002"], "raises", "FSDPStrategy(state_dict_type='SHARDED_STATE_DICT'), save",
       'FSDPStrategy(state_dict_type="SHARDED_STATE_DICT")', "", after=save, imports=fsdp_imp)
    pl("pl2-full-upper", ["PL002"], "raises", "FSDPStrategy(state_dict_type='FULL'), save",
       'FSDPStrategy(state_dict_type="FULL")', "", after=save, imports=fsdp_imp)
    pl("pl2-ok-sharded", ["PL002"], "runs", "near-miss: state_dict_type='sharded'",
       'FSDPStrategy(state_dict_type="sharded")', "", after=save, imports=fsdp_imp)
    pl("pl2-ok-full", ["PL002"], "runs", "near-miss: state_dict_type='full'",
       'FSDPStrategy(state_dict_type="full")', "", after=save, imports=fsdp_imp)

    def slurm(cid, expect, desc, directives, trainer_kw):
        body = (LIGHTNING_MODULE +
                f"trainer = L.Trainer(accelerator=\"cpu\", {trainer_kw}, {PL_QUIET})\n"
                "trainer.fit(Tiny(), data)\n" + 'print("ORACLE world_size", trainer.world_size)\n')
        job = "#!/bin/bash\n" + "".join(f"#SBATCH {d}\n" for d in directives) + "srun python train.py\n"
        add(cid, "slurm", ["PL004"], expect, desc, {"job.sbatch": job, "train.py": body}, "slurm", timeout=60)

    slurm("pl4-devices-vs-tasks", "raises", "devices=2, --ntasks-per-node=1",
          ["--nodes=1", "--ntasks-per-node=1"], "devices=2, num_nodes=1")
    slurm("pl4-nodes", "misbehaves", "num_nodes=1, --nodes=2 (one device: single-device Trainer in each task)", ["--nodes=2", "--ntasks-per-node=1"],
          "devices=1, num_nodes=1")
    slurm("pl4-ok-matching", "runs", "near-miss: devices=1, --ntasks-per-node=1, one node",
          ["--nodes=1", "--ntasks-per-node=1"], "devices=1, num_nodes=1")
    slurm("pl4-num-nodes-2-vs-1", "raises", "num_nodes=2 (so DDP), --nodes=1", ["--nodes=1", "--ntasks-per-node=1"],
          "devices=1, num_nodes=2")
    slurm("pl4-ddp-nodes", "raises", "strategy='ddp', devices=1, num_nodes=1, --nodes=2",
          ["--nodes=2", "--ntasks-per-node=1"], 'devices=1, num_nodes=1, strategy="ddp"')
    slurm("pl4-ntasks-only", "raises", "--ntasks=2 without --ntasks-per-node", ["--nodes=1", "--ntasks=2"],
          "devices=2, num_nodes=1")


# ---------------------------------------------------------------------------------------------------------------
# bitsandbytes under an accelerate FSDP config (GPU, one process)

def bnb_cases():
    def q(cid, rules, expect, desc, version, load, launch=None, patterns=None):
        _layer, auto, cfg = TINY["llama"]
        body = (
            "import torch\n"
            "from peft import LoraConfig, get_peft_model\n"
            "from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments\n\n"
            'args = TrainingArguments(output_dir="out", max_steps=1, per_device_train_batch_size=2, report_to="none",\n'
            '                         save_strategy="no", bf16=True)\n'
            f"{load}\n"
            'model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"]))\n'
            'data = [{"input_ids": torch.arange(16) % 100, "labels": torch.arange(16) % 100} for _ in range(4)]\n'
            "Trainer(model=model, args=args, train_dataset=data).train()\n"
            'print("ORACLE trained")\n')
        files = {"tiny-llama/config.json": _cfg(cfg), "train.py": body}
        if version:
            files["fsdp.yaml"] = fsdp_yaml(version, "LlamaDecoderLayer").replace("mixed_precision: 'no'",
                                                                                  "mixed_precision: bf16")
            files["launch.sh"] = f"accelerate launch --config_file fsdp.yaml --main_process_port {port()} train.py\n"
        else:
            files["launch.sh"] = launch or "python train.py\n"
        add(cid, "bnb_fsdp_config", rules, expect, desc, files, "run", gpu=True,
            models=[{"path": "tiny-llama", "class": "AutoModelForCausalLM"}], timeout=150, anomaly_patterns=patterns)

    q8 = ('model = AutoModelForCausalLM.from_pretrained("tiny-llama", '
          "quantization_config=BitsAndBytesConfig(load_in_8bit=True))")
    q4_default = ('bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)\n'
                  'model = AutoModelForCausalLM.from_pretrained("tiny-llama", quantization_config=bnb, '
                  "dtype=torch.bfloat16)")
    q4_bf16 = ('bnb = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16, '
               'bnb_4bit_quant_storage=torch.bfloat16)\n'
               'model = AutoModelForCausalLM.from_pretrained("tiny-llama", quantization_config=bnb, '
               "dtype=torch.bfloat16)")
    q("qnt1-acc-v1-8bit", ["QNT001"], "raises", "8-bit model under an accelerate FSDP1 config", 1, q8)
    q("qnt1-acc-v2-8bit", ["QNT001"], "raises", "8-bit model under an accelerate FSDP2 config", 2, q8)
    q("qnt1-ok-8bit-one-gpu", ["QNT001"], "runs", "near-miss: 8-bit LoRA without FSDP, python train.py", 0, q8)
    q("fsdp11-acc-v1-default-storage", ["FSDP011"], "raises", "4-bit default storage under an accelerate FSDP1 config",
      1, q4_default)
    q("fsdp11-acc-v1-ok-bf16-storage", ["FSDP011"], "runs", "near-miss: 4-bit storage bf16, FSDP1 config", 1, q4_bf16)
    q("fsdp11-acc-v2-default-storage", ["FSDP011"], "misbehaves",
      "4-bit default storage under FSDP2 (trains; the quantized weights are not sharded)", 2, q4_default,
      patterns=[r"non-floating frozen Params4bit"])
    q("qnt2-acc-v2-device-map-local", ["QNT002"], "runs", "device_map={'': 0} under an accelerate FSDP2 config", 2,
      'model = AutoModelForCausalLM.from_pretrained("tiny-llama", device_map={"": 0}, dtype=torch.bfloat16)')
    q("qnt1-ok-4bit-one-gpu", ["QNT001", "FSDP011"], "runs", "near-miss: 4-bit default storage without FSDP", 0,
      q4_default)


# ---------------------------------------------------------------------------------------------------------------
# torchtitan 0.2.2 start-up (dry: torchrun's real parser gives the world size; torchtitan's config manager,
# ParallelDims, converter registry and start-up assertions run on CPU)

def titan_cases():
    def tt(cid, rules, expect, desc, toml, nproc=8, nnodes=None, extra_args=""):
        nn = f"--nnodes {nnodes} " if nnodes else ""
        launch = (f"torchrun {nn}--nproc_per_node {nproc} -m torchtitan.train --job.config_file train.toml"
                  f"{' ' + extra_args if extra_args else ''}\n")
        add(cid, "torchtitan", rules, expect, desc, {"launch.sh": launch, "train.toml": toml}, "dry")

    def toml(parallel="", training="", extra=""):
        out = '[job]\ndump_folder = "./outputs"\n\n[model]\nname = "llama3"\nflavor = "debugmodel"\n'
        if training:
            out += "\n[training]\n" + training
        if parallel:
            out += "\n[parallelism]\n" + parallel
        return out + extra

    # TT001: degrees vs world size
    tt("tt1-dp4-tp2-on-4", ["TT001"], "raises", "dp_shard 4 x tp 2 on 4 GPUs",
       toml("data_parallel_replicate_degree = 1\ndata_parallel_shard_degree = 4\ntensor_parallel_degree = 2\n"), 4)
    tt("tt1-ok-auto-shard", ["TT001"], "runs", "near-miss: dp_shard -1 x tp 2 on 4 GPUs",
       toml("data_parallel_shard_degree = -1\ntensor_parallel_degree = 2\n"), 4)
    tt("tt1-rep2-shard2-on-8", ["TT001"], "raises", "dp_replicate 2 x dp_shard 2 on 8 GPUs",
       toml("data_parallel_replicate_degree = 2\ndata_parallel_shard_degree = 2\n"), 8)
    tt("tt1-ok-rep2-shard4-on-8", ["TT001"], "runs", "near-miss: 2 x 4 on 8 GPUs",
       toml("data_parallel_replicate_degree = 2\ndata_parallel_shard_degree = 4\n"), 8)
    tt("tt1-two-nodes", ["TT001"], "raises", "dp_shard 4 on 2 nodes x 4 GPUs (world 8)",
       toml("data_parallel_shard_degree = 4\n"), 4, nnodes=2)
    tt("tt1-tp3-auto-on-8", ["TT001"], "raises", "tp 3 with dp_shard -1 on 8 GPUs (8 // 3 = 2, 6 != 8)",
       toml("data_parallel_shard_degree = -1\ntensor_parallel_degree = 3\n"), 8)
    tt("tt1-ok-pp2-tp2-auto-on-8", ["TT001"], "runs", "near-miss: pp 2 x tp 2 x dp_shard -1 on 8 GPUs",
       toml("data_parallel_shard_degree = -1\ntensor_parallel_degree = 2\npipeline_parallel_degree = 2\n"), 8)
    # TT004: unknown keys
    tt("tt4-training-compile", ["TT004"], "raises", "[training] compile = true (0.1 spelling)",
       toml(training="seq_len = 2048\ncompile = true\n"), 1)
    tt("tt4-checkpoint-enable-checkpoint", ["TT004"], "raises", "[checkpoint] enable_checkpoint = true",
       toml(extra="\n[checkpoint]\nenable_checkpoint = true\n"), 1)
    tt("tt4-float8-section", ["TT004"], "raises", "a [float8] section (0.1)",
       toml(extra="\n[float8]\nenable_fsdp_float8_all_gather = true\n"), 1)
    tt("tt4-typo-seqlen", ["TT004"], "raises", "[training] seqlen (typo)", toml(training="seqlen = 2048\n"), 1)
    tt("tt4-lr-min", ["TT004"], "raises", "[lr_scheduler] lr_min (0.1 name)",
       toml(extra="\n[lr_scheduler]\nwarmup_steps = 10\nlr_min = 0.1\n"), 1)
    tt("tt4-ok-compile-section", ["TT004"], "runs", "near-miss: [compile] enable = true, [checkpoint] enable = true",
       toml(training="seq_len = 2048\n", extra="\n[compile]\nenable = true\n\n[checkpoint]\nenable = true\n"), 1)
    tt("tt4-ok-lr-scheduler", ["TT004"], "runs", "near-miss: [lr_scheduler] min_lr_factor",
       toml(extra="\n[lr_scheduler]\nwarmup_steps = 10\nmin_lr_factor = 0.1\n"), 1)
    # TT007: converter names
    tt("tt7-float8", ["TT007"], "raises", "converters = ['float8'] (0.1 name)",
       toml().replace('flavor = "debugmodel"\n', 'flavor = "debugmodel"\nconverters = ["float8"]\n'), 1)
    tt("tt7-mx", ["TT007"], "raises", "converters = ['mx']",
       toml().replace('flavor = "debugmodel"\n', 'flavor = "debugmodel"\nconverters = ["mx"]\n'), 1)
    tt("tt7-ok-quantize-linear-float8", ["TT007"], "runs", "near-miss: converters = ['quantize.linear.float8']",
       toml().replace('flavor = "debugmodel"\n', 'flavor = "debugmodel"\nconverters = ["quantize.linear.float8"]\n'), 1)
    # TT002: global batch
    tt("tt2-36-on-2x4", ["TT002"], "raises", "local 4, global 36, dp 2 x 4",
       toml("data_parallel_replicate_degree = 2\ndata_parallel_shard_degree = 4\n",
            "local_batch_size = 4\nglobal_batch_size = 36\n"), 8)
    tt("tt2-ok-64-on-2x4", ["TT002"], "runs", "near-miss: local 4, global 64, dp 2 x 4",
       toml("data_parallel_replicate_degree = 2\ndata_parallel_shard_degree = 4\n",
            "local_batch_size = 4\nglobal_batch_size = 64\n"), 8)
    tt("tt2-24-auto-on-8", ["TT002"], "raises", "local 4, global 24, dp_shard -1 on 8 GPUs",
       toml("data_parallel_shard_degree = -1\n", "local_batch_size = 4\nglobal_batch_size = 24\n"), 8)
    tt("tt2-ok-default-global", ["TT002"], "runs", "near-miss: global_batch_size -1 (default)",
       toml("data_parallel_shard_degree = -1\n", "local_batch_size = 3\n"), 8)
    # TT003: sequence length
    tt("tt3-8190-tp4-cp2", ["TT003"], "raises", "seq_len 8190, tp 4, cp 2 on 8 GPUs",
       toml("data_parallel_shard_degree = -1\ntensor_parallel_degree = 4\ncontext_parallel_degree = 2\n",
            "seq_len = 8190\n"), 8)
    tt("tt3-ok-8192-tp4-cp2", ["TT003"], "runs", "near-miss: seq_len 8192",
       toml("data_parallel_shard_degree = -1\ntensor_parallel_degree = 4\ncontext_parallel_degree = 2\n",
            "seq_len = 8192\n"), 8)
    tt("tt3-odd-no-cp", ["TT003"], "raises", "seq_len 2047 without TP or CP (the factor 2 still applies)",
       toml("data_parallel_shard_degree = -1\n", "seq_len = 2047\n"), 2)
    tt("tt3-ok-2048", ["TT003"], "runs", "near-miss: seq_len 2048", toml("data_parallel_shard_degree = -1\n",
                                                                            "seq_len = 2048\n"), 2)
    # TT005: async TP
    tt("tt5-async-no-compile", ["TT005"], "raises", "tp 2, async TP, compile off",
       toml("data_parallel_shard_degree = -1\ntensor_parallel_degree = 2\nenable_async_tensor_parallel = true\n",
            extra="\n[compile]\nenable = false\n"), 2)
    tt("tt5-ok-compile", ["TT005"], "runs", "near-miss: async TP with compile on",
       toml("data_parallel_shard_degree = -1\ntensor_parallel_degree = 2\nenable_async_tensor_parallel = true\n",
            extra="\n[compile]\nenable = true\n"), 2)
    tt("tt5-ok-tp1", ["TT005"], "runs", "near-miss: async TP switch with tp 1 (never read)",
       toml("data_parallel_shard_degree = -1\nenable_async_tensor_parallel = true\n",
            extra="\n[compile]\nenable = false\n"), 2)


def yaml_tag_cases():
    for cid, text, expect in (
            ("yml4-python-object", "compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\n"
             "num_machines: 1\nnum_processes: 2\nmain_training_function: !!python/name:os.system\n", "raises"),
            ("yml4-ok-plain", "compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\n"
             "num_machines: 1\nnum_processes: 2\nmain_training_function: main\n", "runs")):
        add(cid, "launch_command", ["YML004"], expect, "accelerate config with a Python tag" if expect == "raises"
            else "near-miss: the same key as a plain string",
            {"launch.sh": "accelerate launch --config_file cfg.yaml train.py\n", "cfg.yaml": text,
             "train.py": ARGPARSE_SCRIPT}, "dry")


# ---------------------------------------------------------------------------------------------------------------
# accelerate + DeepSpeed prepare() without a DataLoader (ACC012), the deepspeed launcher's resource filters
# (LCH009; `run` mode through the `deepspeed` wrapper, DeepSpeed carried as for the DeepSpeed oracle), and
# HfArgumentParser over the script's own dataclasses under a launcher that appends a local-rank option (LCH007).

ACC12_YAML = ("compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n"
              "  zero_stage: 2\nmixed_precision: 'no'\nnum_machines: 1\nnum_processes: 1\n")
# With a DeepSpeed JSON the accelerate config names no other DeepSpeed setting, mixed_precision included (ACC006).
ACC12_JSON_YAML = ("compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n"
                   "  deepspeed_config_file: ds.json\nnum_machines: 1\nnum_processes: 1\n")
ACC12_SCRIPT = (
    "import torch\n"
    "from accelerate import Accelerator\n"
    "from torch.utils.data import DataLoader\n\n"
    "accelerator = Accelerator()\n"
    "model = torch.nn.Linear(16, 16)\n"
    "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)\n"
    "train_dataloader = DataLoader([torch.zeros(16) for _ in range(8)], batch_size=2)\n"
    "@PREPARE@\n"
    'print("ORACLE prepared", type(model).__name__)\n'
)
HF_OWN_DATACLASSES_SCRIPT = (
    "from dataclasses import dataclass\n\n"
    "from transformers import HfArgumentParser\n\n\n"
    "@dataclass\n"
    "class ModelArguments:\n"
    '    model_name_or_path: str = "tiny"\n@FIELD@\n\n'
    "parser = HfArgumentParser((ModelArguments,))\n"
    "(model_args,) = parser.parse_args_into_dataclasses()\n"
    'print("ORACLE args", model_args)\n'
)


def recall6_cases():
    def acc12(cid, expect, desc, prepare, extra=None, yaml=ACC12_YAML):
        files = {"launch.sh": "accelerate launch --config_file ds.yaml train.py\n", "ds.yaml": yaml,
                 "train.py": ACC12_SCRIPT.replace("@PREPARE@", prepare)}
        files.update(extra or {})
        add(cid, "accelerate_deepspeed", ["ACC012"], expect, desc, files, "run", gpu=True)

    acc12("acc12-prepare-without-dataloader", "raises",
          "DEEPSPEED from the config section (micro batch \"auto\"), prepare(model, optimizer) only",
          "model, optimizer = accelerator.prepare(model, optimizer)")
    acc12("acc12-ok-dataloader-prepared", "runs", "near-miss: the DataLoader is prepared with the model",
          "model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)")
    acc12("acc12-ok-json-micro-batch", "runs", "near-miss: deepspeed_config_file with an integer micro batch",
          "model, optimizer = accelerator.prepare(model, optimizer)",
          extra={"ds.json": json.dumps({"train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 1,
                                        "zero_optimization": {"stage": 2}}, indent=1) + "\n"},
          yaml=ACC12_JSON_YAML)
    acc12("acc12-json-auto-micro-batch", "raises", "deepspeed_config_file whose micro batch is \"auto\"",
          "model, optimizer = accelerator.prepare(model, optimizer)",
          extra={"ds.json": json.dumps({"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": 1,
                                        "zero_optimization": {"stage": 2}}, indent=1) + "\n"},
          yaml=ACC12_JSON_YAML)

    # ACC015: the config's DeepSpeed values next to a DeepSpeed JSON the script gives (the Trainer's --deepspeed, a
    # DeepSpeedPlugin(hf_ds_config=...)): _deepspeed_config_checks raises while the plugin is built.
    trainer_script = ("from transformers import HfArgumentParser, TrainingArguments\n\n"
                      "(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()\n"
                      'print("ORACLE args", args.deepspeed)\n')
    plugin_script = ("from accelerate.utils import DeepSpeedPlugin\n\n"
                     'plugin = DeepSpeedPlugin(hf_ds_config="ds.json")\n'
                     'print("ORACLE plugin", plugin.zero_stage)\n')
    ds_json = json.dumps({"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
                          "zero_optimization": {"stage": 2}}, indent=1) + "\n"
    trainer_launch = "accelerate launch --config_file ds.yaml @MP@train.py --deepspeed ds.json --output_dir out\n"

    def acc15(cid, expect, desc, yaml, script=trainer_script, mp=""):
        launch = (trainer_launch if script is trainer_script else "accelerate launch --config_file ds.yaml @MP@train.py\n")
        add(cid, "accelerate_deepspeed", ["ACC015"], expect, desc,
            {"launch.sh": launch.replace("@MP@", mp), "ds.yaml": yaml, "train.py": script, "ds.json": ds_json},
            "run", gpu=True)

    acc15("acc15-trainer-flag-with-section", "raises",
          "accelerate config deepspeed_config.zero_stage and mixed_precision, the Trainer's --deepspeed ds.json",
          ACC12_YAML)
    acc15("acc15-plugin-with-section", "raises",
          "the same config, the script's DeepSpeedPlugin(hf_ds_config=\"ds.json\")", ACC12_YAML, script=plugin_script)
    acc15("acc15-ok-config-file-only", "runs",
          "near-miss: the config names deepspeed_config_file only, the Trainer's --deepspeed ds.json", ACC12_JSON_YAML)
    acc15("acc15-ok-mixed-precision-flag", "runs",
          "near-miss: no replaced key in the section, mixed_precision given as --mixed_precision",
          "compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n"
          "  zero3_init_flag: false\nmixed_precision: 'no'\nnum_machines: 1\nnum_processes: 1\n",
          mp="--mixed_precision no ")

    # LCH009's cases are in deepspeed_launcher_cases (dry, through DeepSpeed's runner and launch modules).

    add("lch7-hfparser-own-dataclasses", "launch_command", ["LCH007"], "raises",
        "torch.distributed.launch, HfArgumentParser over the script's own dataclass without local_rank",
        {"launch.sh": "python -m torch.distributed.launch --nproc_per_node 1 train.py --model_name_or_path m\n",
         "train.py": HF_OWN_DATACLASSES_SCRIPT.replace("@FIELD@", "")}, "dry")
    add("lch7-ok-hfparser-own-local-rank-field", "launch_command", ["LCH007"], "runs",
        "near-miss: the script's own dataclass has a local_rank field",
        {"launch.sh": "python -m torch.distributed.launch --nproc_per_node 1 train.py --model_name_or_path m\n",
         "train.py": HF_OWN_DATACLASSES_SCRIPT.replace("@FIELD@", "    local_rank: int = -1\n")}, "dry")



def visible_gpu_cases():
    """LCH011: more processes than visible GPUs; run on the one GPU of the oracle machine (written, recorded when the
    device time allows)."""
    script = ("import torch\nfrom accelerate import Accelerator\n\n"
              "accelerator = Accelerator()\n"
              "t = torch.ones(1, device=accelerator.device)\n"
              "print(\"ORACLE reduced\", accelerator.reduce(t).item())\n")
    add("lch11-two-processes-one-gpu", "visible_gpus", ["LCH011"], "raises",
        "CUDA_VISIBLE_DEVICES=0 torchrun --nproc_per_node 2: both processes on GPU 0, NCCL refuses the communicator",
        {"launch.sh": "CUDA_VISIBLE_DEVICES=0 torchrun --nproc_per_node 2 train.py\n", "train.py": script}, "run",
        gpu=True)
    add("lch11-ok-one-process-one-gpu", "visible_gpus", ["LCH011"], "runs",
        "near-miss: CUDA_VISIBLE_DEVICES=0 torchrun --nproc_per_node 1",
        {"launch.sh": "CUDA_VISIBLE_DEVICES=0 torchrun --nproc_per_node 1 train.py\n", "train.py": script}, "run",
        gpu=True)


def tp_heads_cases():
    """MDL002: transformers' tensor parallelism (``tp_plan="auto"``, over the launch's processes) on a model whose
    key/value heads the degree does not divide. The oracle machine has one GPU: every rank of the torchrun launch
    runs on it, joined by torch's ``fake`` process group (the real world size, rank and device mesh; collectives
    return without peers), so each rank loads its real shard and runs its own forward."""
    cfg = dict(TINY["llama"][2], num_attention_heads=8, num_key_value_heads=2)  # head_dim 8: q 64, k/v 16 wide
    script = (
        "import os\n\n"
        "import torch\n"
        "import torch.distributed as dist\n"
        "from torch.testing._internal.distributed.fake_pg import FakeStore\n"
        "from transformers import AutoModelForCausalLM\n\n"
        "# One GPU stands in for the node: every rank uses GPU 0 and a fake process group of the launch's size.\n"
        'os.environ["LOCAL_RANK"] = "0"\n'
        'dist.init_process_group("fake", store=FakeStore(), rank=int(os.environ["RANK"]),\n'
        '                        world_size=int(os.environ["WORLD_SIZE"]))\n'
        'model = AutoModelForCausalLM.from_pretrained("tiny", tp_plan="auto")\n'
        "attn = model.model.layers[0].self_attn\n"
        "local = [getattr(p, \"to_local\", lambda p=p: p)().shape[0] for p in (attn.q_proj.weight, attn.k_proj.weight)]\n"
        'print("ORACLE rank", dist.get_rank(), "of", dist.get_world_size(), "q/k rows", local, flush=True)\n'
        "out = model(input_ids=torch.arange(8, device=\"cuda\")[None])\n"
        'print("ORACLE forward", tuple(out.logits.shape), flush=True)\n'
    )
    files = {"tiny/config.json": _cfg(cfg), "train.py": script}
    models = [{"path": "tiny", "class": "AutoModelForCausalLM"}]
    add("mdl2-tp-auto-4-kv-heads-2", "tensor_parallel", ["MDL002"], "raises",
        "torchrun --nproc_per_node 4, tp_plan=\"auto\" on 8 attention / 2 key-value heads: each rank holds half a KV head",
        dict(files, **{"launch.sh": "torchrun --nproc_per_node 4 train.py\n"}), "run", gpu=True, models=models)
    add("mdl2-ok-tp-auto-2-kv-heads-2", "tensor_parallel", ["MDL002"], "runs",
        "near-miss: torchrun --nproc_per_node 2 on the same model (2 divides 8 and 2)",
        dict(files, **{"launch.sh": "torchrun --nproc_per_node 2 train.py\n"}), "run", gpu=True, models=models)


DDP2_YAML = ("compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmachine_rank: 0\nmixed_precision: 'no'\n"
             "num_machines: 1\nnum_processes: 2\n")


def device_map_cases():
    """HF009: a spreading device_map in a two-process data-parallel launch. One GPU: accelerate gives both processes
    GPU 0 (local rank modulo the GPUs it sees), and ``max_memory`` makes ``device_map="auto"`` span GPU 0 and the
    CPU the way it spans several GPUs on a larger node (an ``hf_device_map`` of several entries). The near-miss
    prepares over gloo (NCCL refuses two ranks on one GPU, LCH011) and takes no step (accelerate's DDP wrapper is
    given the local rank as its device id, which one GPU does not have)."""
    spread = 'device_map="auto", max_memory={0: "200KB", "cpu": "1GiB"}'
    files = {"launch.sh": "accelerate launch --config_file ddp.yaml train.py\n", "ddp.yaml": DDP2_YAML,
             "tiny/config.json": _cfg(TINY["llama"][2])}
    models = [{"path": "tiny", "class": "AutoModelForCausalLM"}]
    placed = ('print("ORACLE placed", getattr(model, "hf_device_map", None), '
              'sorted({str(p.device) for p in model.parameters()}), flush=True)\n')
    trainer = (
        "import torch\n"
        "from transformers import AutoModelForCausalLM, Trainer, TrainingArguments\n\n"
        f"model = AutoModelForCausalLM.from_pretrained(\"tiny\", {spread})\n"
        + placed +
        'args = TrainingArguments(output_dir="out", max_steps=1, per_device_train_batch_size=2, report_to="none",\n'
        '                         save_strategy="no")\n'
        'data = [{"input_ids": torch.arange(16) % 100, "labels": torch.arange(16) % 100} for _ in range(4)]\n'
        "Trainer(model=model, args=args, train_dataset=data).train()\n"
        'print("ORACLE trained", flush=True)\n'
    )
    add("hf9-trainer-device-map-auto-two-processes", "device_map", ["HF009"], "raises",
        "accelerate launch, MULTI_GPU with 2 processes, the Trainer on a model loaded with device_map=\"auto\" "
        "(spanning GPU 0 and the CPU)", dict(files, **{"train.py": trainer}), "run", gpu=True, models=models)

    def prepare(load: str, first: str = "", handler: str = "") -> str:
        acc = f"accelerator = Accelerator({handler})\n"
        return (
            "import torch\n"
            "from accelerate import Accelerator" + (", InitProcessGroupKwargs" if handler else "") + "\n"
            "from transformers import AutoModelForCausalLM\n\n"
            + (acc if first else "")
            + f"model = AutoModelForCausalLM.from_pretrained(\"tiny\", {load})\n"
            + placed
            + ("" if first else acc)
            + "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)\n"
            "model, optimizer = accelerator.prepare(model, optimizer)\n"
            'print("ORACLE prepared", accelerator.distributed_type, type(model).__name__, flush=True)\n'
        )

    add("hf9-prepare-device-map-auto-two-processes", "device_map", ["HF009"], "raises",
        "accelerate launch, MULTI_GPU with 2 processes, Accelerator.prepare on a model loaded with device_map=\"auto\"",
        dict(files, **{"train.py": prepare(spread)}), "run", gpu=True, models=models)
    add("hf9-ok-prepare-device-map-own-device", "device_map", ["HF009"], "runs",
        "near-miss: device_map={\"\": accelerator.device}, one whole replica per process, prepared over gloo",
        dict(files, **{"train.py": prepare('device_map={"": accelerator.device}', first="yes",
                                           handler='kwargs_handlers=[InitProcessGroupKwargs(backend="gloo")]')}),
        "run", gpu=True, models=models)


LF_SFT_YAML = ("model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nadapter_name_or_path: saves/llama3-8b/lora/sft\n"
               "stage: sft\ndo_train: true\nfinetuning_type: lora\ntemplate: llama3\noutput_dir: saves/llama3-8b/lora/sft\n")
LF_MERGE_YAML = ("model_name_or_path: meta-llama/Meta-Llama-3-8B-Instruct\nadapter_name_or_path: saves/llama3-8b/lora/sft\n"
                 "template: llama3\nfinetuning_type: lora\nexport_dir: output/llama3_lora_sft\n")


def llamafactory_cases():
    """LCH008: a config a LLaMA-Factory subcommand does not parse, through LLaMA-Factory's own argument parsing
    (commit ff6d4d1, carried; dry: llamafactory_main in run_lib_oracle.py)."""
    add("lch8-export-training-config", "llamafactory", ["LCH008"], "raises",
        "llamafactory-cli export on a training config (stage, do_train, output_dir)",
        {"launch.sh": "llamafactory-cli export sft.yaml\n", "sft.yaml": LF_SFT_YAML}, "dry")
    add("lch8-chat-training-config", "llamafactory", ["LCH008"], "raises",
        "llamafactory-cli chat on a training config",
        {"launch.sh": "llamafactory-cli chat sft.yaml\n", "sft.yaml": LF_SFT_YAML}, "dry")
    add("lch8-ok-export-merge-config", "llamafactory", ["LCH008"], "runs",
        "near-miss: llamafactory-cli export on a merge config (export_dir, no training keys)",
        {"launch.sh": "llamafactory-cli export merge.yaml\n", "merge.yaml": LF_MERGE_YAML}, "dry")
    add("lch8-ok-export-allow-extra-args", "llamafactory", ["LCH008"], "runs",
        "near-miss: the training config with ALLOW_EXTRA_ARGS=1 set for the command",
        {"launch.sh": "ALLOW_EXTRA_ARGS=1 llamafactory-cli export sft.yaml\n", "sft.yaml": LF_SFT_YAML}, "dry")

    # QNT003: LLaMA-Factory's quantization check under ZeRO-3 (get_train_args with DeepSpeed 0.14.5 carried, then the
    # model loader's configure_quantization on the tiny model's config; bitsandbytes 0.50.1's package carried for the
    # version check it makes first). The script step sees the GPU (DeepSpeed's distributed start).
    def qlora(bits):
        return {"launch.sh": "FORCE_TORCHRUN=1 NPROC_PER_NODE=8 llamafactory-cli train lora_sft.yaml\n",
                "lora_sft.yaml": ("model_name_or_path: tiny\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
                                  f"quantization_bit: {bits}\ndataset: alpaca_en_demo\noutput_dir: saves/tiny-lora\n"
                                  "deepspeed: ds_z3_config.json\n"),
                "ds_z3_config.json": json.dumps({"train_micro_batch_size_per_gpu": "auto",
                                                 "zero_optimization": {"stage": 3}}) + "\n",
                "tiny/config.json": _cfg(TINY["llama"][2])}

    add("qnt3-llamafactory-8bit-zero3", "llamafactory", ["QNT003"], "raises",
        "llamafactory-cli train, quantization_bit: 8 with a ZeRO-3 DeepSpeed config", qlora(8), "dry", gpu=True)
    add("qnt3-ok-llamafactory-4bit-zero3", "llamafactory", ["QNT003"], "runs",
        "near-miss: quantization_bit: 4 with the same ZeRO-3 config", qlora(4), "dry", gpu=True)


# ---------------------------------------------------------------------------------------------------------------
# Error rules that rested on citations only (issue #8): ACC013 (accelerate + DeepSpeed, an optimizer or scheduler in
# the DeepSpeed JSON and in the code), ACC014 (accelerate's multi-GPU launcher with one process), MDL003 (LoRA
# targets that name no module of the model) and QNT004 (LLaMA-Factory's Unsloth check under ZeRO-3).

ACC13_SCRIPT = (
    "import torch\n"
    "from accelerate import Accelerator\n"
    "@IMPORTS@"
    "from torch.utils.data import DataLoader\n\n"
    "accelerator = Accelerator()\n"
    "model = torch.nn.Linear(16, 16)\n"
    "@OPTIMIZER@\n"
    "train_dataloader = DataLoader([torch.zeros(16) for _ in range(8)], batch_size=2)\n"
    "@PREPARE@\n"
    'print("ORACLE prepared", type(model).__name__, type(optimizer).__name__, flush=True)\n'
)


def citation_rule_cases():
    # ACC013: run on the GPU (DeepSpeed 0.14.5 carried); each config names its own port so that cases may run side
    # by side. The DeepSpeed optimizer of the near-miss is torch's AdamW (`torch_adam`): no DeepSpeed op is built.
    def acc13(cid, expect, desc, ds, optimizer, prepare, imports=""):
        yaml = ("compute_environment: LOCAL_MACHINE\ndistributed_type: DEEPSPEED\ndeepspeed_config:\n"
                f"  deepspeed_config_file: ds.json\nmain_process_port: {port()}\nnum_machines: 1\nnum_processes: 1\n")
        script = (ACC13_SCRIPT.replace("@IMPORTS@", imports).replace("@OPTIMIZER@", optimizer)
                  .replace("@PREPARE@", prepare))
        add(cid, "accelerate_deepspeed", ["ACC013"], expect, desc,
            {"launch.sh": "accelerate launch --config_file ds.yaml train.py\n", "ds.yaml": yaml,
             "ds.json": json.dumps(ds, indent=1) + "\n", "train.py": script}, "run", gpu=True)

    zero2 = {"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": 1,
             "zero_optimization": {"stage": 2}}
    adamw = {"type": "AdamW", "params": {"lr": "auto", "weight_decay": "auto", "torch_adam": True}}
    torch_opt = "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)"
    prep3 = "model, optimizer, train_dataloader = accelerator.prepare(model, optimizer, train_dataloader)"
    acc13("acc13-optimizer-in-json", "raises", "DeepSpeed JSON with an optimizer section, torch AdamW prepared",
          dict(zero2, optimizer=adamw), torch_opt, prep3)
    acc13("acc13-scheduler-in-json", "raises",
          "DeepSpeed JSON with a scheduler section (WarmupLR), torch AdamW and transformers' get_scheduler prepared",
          dict(zero2, scheduler={"type": "WarmupLR", "params": {"warmup_num_steps": "auto"}}),
          torch_opt + "\nlr_scheduler = get_scheduler(\"linear\", optimizer=optimizer, num_warmup_steps=1, "
          "num_training_steps=10)",
          "model, optimizer, train_dataloader, lr_scheduler = accelerator.prepare(\n"
          "    model, optimizer, train_dataloader, lr_scheduler\n)", imports="from transformers import get_scheduler\n")
    acc13("acc13-ok-dummy-optim", "runs", "near-miss: the optimizer section with accelerate's DummyOptim in the code",
          dict(zero2, optimizer=adamw), "optimizer = DummyOptim(model.parameters(), lr=1e-4)", prep3,
          imports="from accelerate.utils import DummyOptim\n")
    acc13("acc13-ok-json-without-optimizer", "runs", "near-miss: no optimizer section, torch AdamW prepared",
          zero2, torch_opt, prep3)

    # ACC014: through accelerate's launch_command_parser and _validate_launch_command (dry).
    one = ("compute_environment: LOCAL_MACHINE\ndistributed_type: MULTI_GPU\nmachine_rank: 0\nmixed_precision: 'no'\n"
           "num_machines: 1\nnum_processes: 1\n")

    def acc14(cid, expect, desc, launch, extra=None):
        add(cid, "launch_command", ["ACC014"], expect, desc,
            dict({"launch.sh": launch, "train.py": ARGPARSE_SCRIPT}, **(extra or {})), "dry")

    acc14("acc14-cli-multi-gpu-one-process", "raises", "accelerate launch --multi_gpu --num_processes 1",
          "accelerate launch --multi_gpu --num_processes 1 train.py\n")
    acc14("acc14-ok-cli-multi-gpu-two-processes", "runs", "near-miss: --multi_gpu --num_processes 2",
          "accelerate launch --multi_gpu --num_processes 2 train.py\n")
    acc14("acc14-config-multi-gpu-one-process", "misbehaves",
          "config file: distributed_type MULTI_GPU with num_processes 1 (one process starts)",
          "accelerate launch --config_file cfg.yaml train.py\n", {"cfg.yaml": one})
    acc14("acc14-flag-multi-gpu-config-one-process", "misbehaves",
          "--multi_gpu on the command line, num_processes 1 from the config file (the flag check has passed)",
          "accelerate launch --multi_gpu --config_file cfg.yaml train.py\n", {"cfg.yaml": one})

    # MDL003: PEFT's get_peft_model on tiny models of three families (config.json shipped, weights saved by the
    # oracle; CPU). The folder names the family, as a hub id or a local checkpoint folder does.
    neox = {"model_type": "gpt_neox", "architectures": ["GPTNeoXForCausalLM"], "hidden_size": 64,
            "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 128,
            "max_position_embeddings": 64}

    def mdl3(cid, expect, desc, folder, cfg, targets):
        script = ("from peft import LoraConfig, get_peft_model\n"
                  "from transformers import AutoModelForCausalLM\n\n"
                  f'model = AutoModelForCausalLM.from_pretrained("{folder}")\n'
                  f'config = LoraConfig(r=8, lora_alpha=16, target_modules={json.dumps(targets)}, task_type="CAUSAL_LM")\n'
                  "model = get_peft_model(model, config)\n"
                  'print("ORACLE adapted", sorted({n.split(".lora_A")[0].rsplit(".", 1)[-1] '
                  'for n, _ in model.named_parameters() if ".lora_A" in n}), flush=True)\n')
        add(cid, "lora_targets", ["MDL003"], expect, desc,
            {"launch.sh": "python train.py\n", "train.py": script, f"{folder}/config.json": _cfg(cfg)}, "run",
            models=[{"path": folder, "class": "AutoModelForCausalLM"}])

    mdl3("mdl3-gpt2-llama-names", "raises", "GPT-2 with Llama's q_proj, v_proj", "gpt2-tiny", TINY["gpt2"][2],
         ["q_proj", "v_proj"])
    mdl3("mdl3-ok-gpt2-c-attn", "runs", "near-miss: GPT-2 with c_attn", "gpt2-tiny", TINY["gpt2"][2], ["c_attn"])
    mdl3("mdl3-ok-gpt2-one-target-matches", "runs", "near-miss: GPT-2 with c_attn and q_proj (one matches)",
         "gpt2-tiny", TINY["gpt2"][2], ["c_attn", "q_proj"])
    mdl3("mdl3-pythia-llama-names", "raises", "GPT-NeoX (Pythia) with q_proj, v_proj", "pythia-tiny", neox,
         ["q_proj", "v_proj"])
    mdl3("mdl3-ok-pythia-query-key-value", "runs", "near-miss: GPT-NeoX with query_key_value", "pythia-tiny", neox,
         ["query_key_value"])
    mdl3("mdl3-llama-fused-name", "raises", "Llama with the fused query_key_value of GPT-NeoX", "llama-tiny",
         TINY["llama"][2], ["query_key_value"])
    mdl3("mdl3-ok-llama-dotted-suffix", "runs", "near-miss: Llama with self_attn.q_proj, self_attn.v_proj",
         "llama-tiny", TINY["llama"][2], ["self_attn.q_proj", "self_attn.v_proj"])

    # QNT004: LLaMA-Factory's get_train_args (commit ff6d4d1, carried) with use_unsloth and a ZeRO-3 DeepSpeed config:
    # the check (hparams/parser.py:532-533) runs before its dependency check asks for unsloth (:539, :262-263), so no
    # unsloth is needed to reach it. Dry, as rank 0, the GPU visible (DeepSpeed's start), as QNT003's cases.
    def unsloth(stage, use):
        name = f"ds_z{stage}_config.json"
        return {"launch.sh": "FORCE_TORCHRUN=1 NPROC_PER_NODE=8 llamafactory-cli train lora_sft.yaml\n",
                "lora_sft.yaml": ("model_name_or_path: tiny\nstage: sft\ndo_train: true\nfinetuning_type: lora\n"
                                  + ("use_unsloth: true\n" if use else "")
                                  + f"dataset: alpaca_en_demo\noutput_dir: saves/tiny-lora\ndeepspeed: {name}\n"),
                name: json.dumps({"train_micro_batch_size_per_gpu": "auto",
                                  "zero_optimization": {"stage": stage}}) + "\n",
                "tiny/config.json": _cfg(TINY["llama"][2])}

    add("qnt4-llamafactory-unsloth-zero3", "llamafactory", ["QNT004"], "raises",
        "llamafactory-cli train, use_unsloth: true with a ZeRO-3 DeepSpeed config", unsloth(3, True), "dry", gpu=True)
    add("qnt4-ok-llamafactory-zero3-no-unsloth", "llamafactory", ["QNT004"], "runs",
        "near-miss: the same ZeRO-3 config without use_unsloth", unsloth(3, False), "dry", gpu=True)
    add("qnt4-ok-llamafactory-unsloth-zero2", "llamafactory", ["QNT004"], "runs",
        "near-miss: use_unsloth with ZeRO-2 (passes the check; the next step asks for unsloth itself)",
        unsloth(2, True), "dry", gpu=True)


def ds14_cases():
    # DS014: the HF Trainer with a LoRA model under ZeRO-3 and checkpointing, `deepspeed --num_gpus N` read through
    # DeepSpeed's launcher (dry), the script then run as rank 0 of those N ranks on torch's fake process group
    # (`fake_world`): DeepSpeed 0.14.5 carried, the GPU visible. The model is built from a tiny Llama config.
    ds_z3 = json.dumps({"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
                        "bf16": {"enabled": "auto"}, "zero_optimization": {
                            "stage": 3, "stage3_param_persistence_threshold": "auto",
                            "stage3_prefetch_bucket_size": "auto", "reduce_bucket_size": "auto"}}, indent=1) + "\n"
    ds_z2 = json.dumps({"train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
                        "bf16": {"enabled": "auto"}, "zero_optimization": {"stage": 2}}, indent=1) + "\n"
    tiny = _cfg(dict(TINY["llama"][2], hidden_size=512, intermediate_size=1024))

    def script(kwargs: str, lora: bool = True) -> str:
        return (
            "import torch\n"
            + ("from peft import LoraConfig, get_peft_model\n" if lora else "")
            + "from transformers import AutoConfig, AutoModelForCausalLM, Trainer, TrainingArguments\n\n"
            "args = TrainingArguments(\n"
            '    output_dir="out",\n'
            "    max_steps=2,\n"
            "    per_device_train_batch_size=2,\n"
            '    report_to="none",\n'
            '    save_strategy="no",\n'
            "    bf16=True,\n"
            '    deepspeed="ds_config.json",\n'
            f"{kwargs}"
            ")\n"
            'model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained("tiny"))\n'
            + ('model = get_peft_model(model, LoraConfig(r=8, target_modules=["q_proj", "v_proj"], '
               'task_type="CAUSAL_LM"))\n' if lora else "")
            + 'data = [{"input_ids": torch.arange(16) % 100, "labels": torch.arange(16) % 100} for _ in range(8)]\n'
            "Trainer(model=model, args=args, train_dataset=data).train()\n"
            'print("ORACLE trained")\n'
        )

    explicit = '    gradient_checkpointing=True,\n    gradient_checkpointing_kwargs={"use_reentrant": False},\n'

    def ds14(cid, expect, desc, kwargs, lora=True, ds=ds_z3, nproc=2, pins="deepspeed==0.14.5\n"):
        add(cid, "deepspeed_zero3", ["DS014"], expect, desc,
            {"launch.sh": f"deepspeed --num_gpus {nproc} train.py\n", "train.py": script(kwargs, lora),
             "ds_config.json": ds, "tiny/config.json": tiny, "requirements.txt": pins},
            "dry", gpu=True, fake_world=True)
        CASES[-1]["oracle"]["script_timeout"] = 240

    ds14("ds14-lora-zero3-non-reentrant", "raises",
         "LoRA (peft) under ZeRO-3 on 2 ranks, gradient_checkpointing_kwargs use_reentrant=False", explicit)
    ds14("ds14-lora-zero3-default-transformers5", "raises",
         "LoRA under ZeRO-3 on 2 ranks, gradient_checkpointing=True alone with transformers 5 (non-reentrant default)",
         "    gradient_checkpointing=True,\n", pins="deepspeed==0.14.5\ntransformers==5.17.0\n")
    ds14("ds14-ok-reentrant", "runs", "near-miss: the same with use_reentrant=True",
         '    gradient_checkpointing=True,\n    gradient_checkpointing_kwargs={"use_reentrant": True},\n')
    ds14("ds14-ok-full-finetune", "runs", "near-miss: no PEFT (every parameter trainable)", explicit, lora=False)
    ds14("ds14-ok-zero2", "runs", "near-miss: ZeRO-2 (parameters not partitioned)", explicit, ds=ds_z2)
    ds14("ds14-ok-no-checkpointing", "runs", "near-miss: no activation checkpointing", "")
    ds14("ds14-one-process", "raises", "LoRA under ZeRO-3 on one process (a real world of 1, no fake group)",
         explicit, nproc=1)


def fsdp18_cases():
    # FSDP018: FSDP2 asked for through accelerate or the HF Trainer while the project pins a torch older than
    # accelerate's FSDP2 minimum (2.6.0 from accelerate 1.7.0). The machine has one torch (2.11), so the script's
    # processes claim the pinned version to accelerate (`claim_torch`, claimed_torch/sitecustomize.py): what runs is
    # accelerate's own version gate in the plugin it builds, with the pin as the version it reads.
    acc_yaml = ("compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nmachine_rank: 0\nmixed_precision: bf16\n"
                "num_machines: 1\nnum_processes: 2\nfsdp_config:\n  fsdp_version: 2\n"
                "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer\n")
    acc_script = ("from accelerate import Accelerator\n\n"
                  "accelerator = Accelerator()\n"
                  'print("ORACLE", accelerator.distributed_type, accelerator.state.fsdp_plugin.fsdp_version)\n')
    tiny = _cfg(TINY["llama"][2])
    trainer_script = (
        "from transformers import AutoConfig, AutoModelForCausalLM, Trainer, TrainingArguments\n\n"
        "args = TrainingArguments(\n"
        '    output_dir="out",\n'
        '    report_to="none",\n'
        '    fsdp="full_shard",\n'
        '    fsdp_config={"version": 2, "transformer_layer_cls_to_wrap": ["LlamaDecoderLayer"]},\n'
        ")\n"
        'model = AutoModelForCausalLM.from_config(AutoConfig.from_pretrained("tiny"))\n'
        "trainer = Trainer(model=model, args=args)\n"
        'print("ORACLE", type(trainer.accelerator.state.fsdp_plugin).__name__, trainer.accelerator.state.fsdp_plugin.fsdp_version)\n'
    )

    def acc(cid, expect, desc, torch_pin):
        add(cid, "fsdp2_torch", ["FSDP018"], expect, desc,
            {"launch.sh": "accelerate launch --config_file accelerate.yaml train.py\n", "train.py": acc_script,
             "accelerate.yaml": acc_yaml, "requirements.txt": f"torch=={torch_pin}\naccelerate==1.15.0\n"},
            "dry", gpu=True, claim_torch=torch_pin)
        CASES[-1]["oracle"]["launcher_env"] = True

    def trainer(cid, expect, desc, torch_pin):
        add(cid, "fsdp2_torch", ["FSDP018"], expect, desc,
            {"launch.sh": "torchrun --nproc_per_node 2 train.py\n", "train.py": trainer_script,
             "tiny/config.json": tiny,
             "requirements.txt": f"torch=={torch_pin}\naccelerate==1.15.0\ntransformers==5.17.0\n"},
            "dry", gpu=True, claim_torch=torch_pin)

    acc("fsdp18-acc-torch-2-4-1", "raises", "accelerate config fsdp_version 2, torch==2.4.1 pinned", "2.4.1")
    acc("fsdp18-acc-torch-2-5-1", "raises", "accelerate config fsdp_version 2, torch==2.5.1 pinned (accelerate "
        "1.6's minimum, below 1.7's)", "2.5.1")
    acc("fsdp18-ok-acc-torch-2-6-0", "runs", "near-miss: torch==2.6.0 pinned", "2.6.0")
    trainer("fsdp18-trainer-torch-2-4-1", "raises", "TrainingArguments(fsdp=..., fsdp_config={'version': 2}), "
            "torch==2.4.1 pinned", "2.4.1")
    trainer("fsdp18-ok-trainer-torch-2-6-0", "runs", "near-miss: the Trainer with torch==2.6.0 pinned", "2.6.0")


def main():
    titan_cases()
    yaml_tag_cases()
    mdl_cases()
    launch_cases()
    deepspeed_launcher_cases()
    rendezvous_cases()
    visible_gpu_cases()
    tp_heads_cases()
    device_map_cases()
    llamafactory_cases()
    hf_cases()
    fsdp13_cases()
    trl_cases()
    lightning_cases()
    bnb_cases()
    recall6_cases()
    citation_rule_cases()
    ds14_cases()
    fsdp18_cases()
    out = Path(__file__).with_name("lib_cases.json")
    doc = {"format": "launchlint-lib-oracle-cases/1", "generated_by": "tools/oracle/lib_generate_cases.py",
           "count": len(CASES), "cases": CASES}
    out.write_text(json.dumps(doc, indent=1) + "\n")
    groups = {}
    for c in CASES:
        groups[c["group"]] = groups.get(c["group"], 0) + 1
    print(f"wrote {out}: {len(CASES)} cases {groups}")


if __name__ == "__main__":
    main()
