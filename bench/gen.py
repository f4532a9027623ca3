"""Deterministic benchmark workloads for launchlint (bench/run uses them; docs/performance.md describes them).

    python3 bench/gen.py OUT small          one training project (a dozen files)
    python3 bench/gen.py OUT mono SCALE     a monorepo of training code, configs and launch scripts: about 3,400
                                            files at scale 1; scale N holds N times the projects (the projects of
                                            scale 1 are the first ones of every larger scale)
    python3 bench/gen.py OUT huge           one 4 MB Python file and one 32 MB YAML file
    python3 bench/gen.py OUT gitignore N    N folders, each with a .gitignore and four small files (discovery)

Every byte depends only on the arguments (random.Random seeded with strings is stable across runs and Python
versions), and the last line printed is a SHA-256 over every path and content, so two machines can check that they
measure the same workload. The content is modelled on fixtures/: accelerate, DeepSpeed, axolotl, LLaMA-Factory and
torchtitan configs, HF Trainer / accelerate / FSDP training scripts, launch shell scripts, sbatch files and Makefiles,
next to the code a training repository mostly holds (models, data pipelines, utilities, tests) that no launch needs.
"""
import hashlib
import os
import random
import sys

PROJECTS_PER_SCALE = 155  # x 22 files = 3,410 files at scale 1

WORDS = ("hidden", "state", "layer", "attn", "proj", "weight", "bias", "scale", "norm", "cache", "token", "batch",
         "mask", "logits", "loss", "step", "grad", "embed", "pos", "rotary", "head", "dim", "seq", "block", "expert",
         "router", "gate", "up", "down", "value", "key", "query", "dropout", "eps", "vocab", "sample", "shard", "rank")
MODELS = ("meta-llama/Llama-2-7b-hf", "meta-llama/Meta-Llama-3-8B", "mistralai/Mistral-7B-v0.1", "Qwen/Qwen2.5-7B",
          "google/gemma-2-9b", "microsoft/phi-4", "allenai/OLMo-2-1124-7B", "gpt2")
LAYERS = ("LlamaDecoderLayer", "MistralDecoderLayer", "Qwen2DecoderLayer", "Gemma2DecoderLayer", "GPT2Block")


class Py:
    """Random but plausible Python: classes, functions, comprehensions, f-strings, type hints, decorators."""

    def __init__(self, rng: random.Random):
        self.r = rng

    def name(self, parts=2):
        return "_".join(self.r.choice(WORDS) for _ in range(parts))

    def expr(self, depth=0):
        r = self.r
        k = r.randrange(9 if depth < 2 else 4)
        if k == 0:
            return self.name()
        if k == 1:
            return str(r.randrange(1, 4096))
        if k == 2:
            return f'"{self.name(3)}"'
        if k == 3:
            return f"self.{self.name()}"
        if k == 4:
            return f"{self.expr(depth + 1)} {r.choice('+-*/%')} {self.expr(depth + 1)}"
        if k == 5:
            args = ", ".join(self.expr(depth + 1) for _ in range(r.randrange(0, 4)))
            return f"{self.name()}({args})"
        if k == 6:
            return f"[{self.expr(depth + 1)} for {self.name(1)} in range({self.expr(depth + 1)})]"
        if k == 7:
            return f'f"{self.name(1)}={{{self.name()}}} {self.name(1)}={{{self.name()}:.3f}}"'
        return f"torch.{r.choice(('zeros', 'ones', 'randn', 'arange'))}({self.expr(depth + 1)}, dtype=torch.bfloat16)"

    def stmt(self, indent, depth=0):
        r = self.r
        pad = "    " * indent
        k = r.randrange(8 if depth < 2 else 4)
        if k in (0, 1):
            return [f"{pad}{self.name()} = {self.expr()}"]
        if k == 2:
            return [f"{pad}{self.name()}: {r.choice(('int', 'float', 'torch.Tensor', 'list[str]'))} = {self.expr()}"]
        if k == 3:
            return [f"{pad}{self.name()}({self.expr()}, {self.name(1)}={self.expr()})"]
        if k == 4:
            body = [line for _ in range(r.randrange(1, 4)) for line in self.stmt(indent + 1, depth + 1)]
            return [f"{pad}for {self.name(1)} in {self.expr()}:"] + body
        if k == 5:
            body = [line for _ in range(r.randrange(1, 4)) for line in self.stmt(indent + 1, depth + 1)]
            other = [line for _ in range(r.randrange(1, 3)) for line in self.stmt(indent + 1, depth + 1)]
            return [f"{pad}if {self.expr()} > {self.expr()}:"] + body + [f"{pad}else:"] + other
        if k == 6:
            body = [line for _ in range(r.randrange(1, 3)) for line in self.stmt(indent + 1, depth + 1)]
            return [f"{pad}with torch.no_grad():"] + body
        comment = f"{pad}# {' '.join(self.name(1) for _ in range(r.randrange(3, 12)))}"
        return [comment, f"{pad}{self.name()} = {self.expr()}"]

    def function(self, indent, method=False):
        r = self.r
        pad = "    " * indent
        params = (["self"] if method else []) + [f"{self.name()}: int = {r.randrange(64)}" for _ in range(r.randrange(0, 4))]
        lines = []
        if r.random() < 0.2:
            lines.append(f"{pad}@{r.choice(('torch.no_grad()', 'staticmethod', 'functools.lru_cache(maxsize=None)'))}")
            if "staticmethod" in lines[-1] and method:
                params = params[1:]
        lines.append(f"{pad}def {self.name()}({', '.join(params)}) -> {r.choice(('None', 'torch.Tensor', 'dict'))}:")
        lines.append(f'{pad}    """{" ".join(self.name(1) for _ in range(r.randrange(4, 14))).capitalize()}."""')
        for _ in range(r.randrange(2, 9)):
            lines += self.stmt(indent + 1)
        lines.append(f"{pad}    return {self.expr()}")
        return lines

    def cls(self):
        r = self.r
        name = "".join(w.capitalize() for w in (r.choice(WORDS), r.choice(WORDS), r.choice(("Module", "Layer", "Block"))))
        lines = [f"class {name}(nn.Module):", f'    """{self.name(4).replace("_", " ").capitalize()}."""', ""]
        lines += ["    def __init__(self, config):", "        super().__init__()"]
        for _ in range(r.randrange(2, 8)):
            lines.append(f"        self.{self.name()} = nn.Linear(config.hidden_size, {r.randrange(64, 8192)}, bias=False)")
        for _ in range(r.randrange(2, 6)):
            lines.append("")
            lines += self.function(1, method=True)
        return lines

    def module(self, units, header=()):
        lines = ['"""' + self.name(5).replace("_", " ").capitalize() + '."""',
                 "import functools", "import math", "", "import torch", "from torch import nn", ""] + list(header)
        for _ in range(units):
            lines.append("")
            lines.append("")
            lines += self.cls() if self.r.random() < 0.5 else self.function(0)
        return "\n".join(lines) + "\n"


def train_script(r: random.Random, kind: str, py: Py) -> str:
    model = r.choice(MODELS)
    body = py.module(r.randrange(1, 4))
    ckpt = r.random() < 0.5
    if kind == "trainer":
        main = f'''
from transformers import AutoModelForCausalLM, Trainer, TrainingArguments


def main():
    model = AutoModelForCausalLM.from_pretrained("{model}", torch_dtype=torch.bfloat16)
    args = TrainingArguments(
        output_dir="out",
        per_device_train_batch_size={r.choice((1, 2, 4, 8))},
        gradient_accumulation_steps={r.choice((1, 2, 4, 8, 16))},
        learning_rate={r.choice(("1e-5", "2e-5", "2e-4"))},
        bf16=True,
        gradient_checkpointing={ckpt},
        fsdp="{r.choice(("full_shard auto_wrap", "shard_grad_op auto_wrap", ""))}",
        fsdp_config={{"transformer_layer_cls_to_wrap": ["{r.choice(LAYERS)}"]}},
    )
    trainer = Trainer(model=model, args=args)
    trainer.train()
'''
    elif kind == "accelerate":
        main = f'''
from accelerate import Accelerator
from transformers import AutoModelForCausalLM


def main():
    accelerator = Accelerator(gradient_accumulation_steps={r.choice((1, 4, 8))})
    model = AutoModelForCausalLM.from_pretrained("{model}", torch_dtype=torch.bfloat16)
    {"model.gradient_checkpointing_enable()" if ckpt else "pass"}
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-4)
    model, optimizer = accelerator.prepare(model, optimizer)
'''
    else:  # plain torch FSDP
        main = f'''
import functools
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, ShardingStrategy
from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
from transformers import AutoModelForCausalLM
from transformers.models.llama.modeling_llama import LlamaDecoderLayer


def main():
    torch.distributed.init_process_group("nccl")
    model = AutoModelForCausalLM.from_pretrained("{model}")
    policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={{LlamaDecoderLayer}})
    model = FSDP(model, auto_wrap_policy=policy, sharding_strategy=ShardingStrategy.{r.choice(("FULL_SHARD", "SHARD_GRAD_OP", "HYBRID_SHARD"))})
'''
    return body + main + '\n\nif __name__ == "__main__":\n    main()\n'


def cli_script(r: random.Random, py: Py) -> str:
    """A preprocessing or evaluation script: argparse, no launch settings (launchlint's pre-filter still reads it)."""
    opts = "\n".join(f'    parser.add_argument("--{py.name().replace("_", "-")}", type=int, default={r.randrange(512)})'
                     for _ in range(r.randrange(2, 8)))
    return py.module(r.randrange(1, 3)) + f'''
import argparse


def parse_args():
    parser = argparse.ArgumentParser(description="{py.name(3)}")
{opts}
    return parser.parse_args()


if __name__ == "__main__":
    print(parse_args())
'''


def accelerate_yaml(r: random.Random) -> str:
    n = r.choice((2, 4, 8, 16))
    machines = r.choice((1, 1, 2))
    return f"""compute_environment: LOCAL_MACHINE
distributed_type: FSDP
mixed_precision: {r.choice(("bf16", "fp16", "no"))}
num_machines: {machines}
num_processes: {n * machines}
machine_rank: 0
main_training_function: main
fsdp_config:
  fsdp_version: {r.choice((1, 2))}
  fsdp_sharding_strategy: {r.choice(("FULL_SHARD", "SHARD_GRAD_OP", "HYBRID_SHARD"))}
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_transformer_layer_cls_to_wrap: {r.choice(LAYERS)}
  fsdp_backward_prefetch: BACKWARD_PRE
  fsdp_state_dict_type: SHARDED_STATE_DICT
  fsdp_use_orig_params: true
  fsdp_cpu_ram_efficient_loading: true
  fsdp_sync_module_states: true
  fsdp_activation_checkpointing: {r.choice(("true", "false"))}
"""


def deepspeed_json(r: random.Random) -> str:
    stage = r.choice((1, 2, 3))
    offload = '"offload_param": {"device": "cpu", "pin_memory": true},' if stage == 3 and r.random() < 0.5 else ""
    return f"""{{
  "train_micro_batch_size_per_gpu": "auto",
  "gradient_accumulation_steps": "auto",
  "gradient_clipping": 1.0,
  "bf16": {{"enabled": true}},
  "zero_optimization": {{
    "stage": {stage},
    {offload}
    "overlap_comm": true,
    "contiguous_gradients": true,
    "reduce_bucket_size": {r.choice((500000000, 200000000))},
    "stage3_gather_16bit_weights_on_model_save": true
  }},
  "steps_per_print": {r.choice((10, 100, 2000))},
  "wall_clock_breakdown": false
}}
"""


def axolotl_yaml(r: random.Random, n_datasets: int = 2) -> str:
    datasets = "".join(f"  - path: org/dataset-{r.randrange(10**6)}\n    type: {r.choice(('alpaca', 'sharegpt', 'completion'))}\n"
                       f"    split: train[:{r.randrange(1, 100)}%]\n" for _ in range(n_datasets))
    return f"""base_model: {r.choice(MODELS)}
model_type: AutoModelForCausalLM
load_in_8bit: false
load_in_4bit: {r.choice(("true", "false"))}
adapter: {r.choice(("lora", "qlora"))}
lora_r: {r.choice((8, 16, 32, 64))}
lora_alpha: 32
lora_dropout: 0.05
lora_target_linear: true
sequence_len: {r.choice((2048, 4096, 8192))}
sample_packing: true
micro_batch_size: {r.choice((1, 2, 4))}
gradient_accumulation_steps: {r.choice((1, 4, 8))}
num_epochs: 3
optimizer: adamw_torch_fused
lr_scheduler: cosine
learning_rate: 0.0002
bf16: auto
gradient_checkpointing: {r.choice(("true", "false"))}
fsdp:
  - full_shard
  - auto_wrap
fsdp_config:
  fsdp_transformer_layer_cls_to_wrap: {r.choice(LAYERS)}
  fsdp_offload_params: false
datasets:
{datasets}"""


def llamafactory_yaml(r: random.Random) -> str:
    return f"""### model
model_name_or_path: {r.choice(MODELS)}
### method
stage: sft
do_train: true
finetuning_type: {r.choice(("lora", "full"))}
lora_rank: {r.choice((8, 16))}
lora_target: all
deepspeed: configs/ds_zero3.json
### dataset
dataset: alpaca_en_demo
template: llama3
cutoff_len: {r.choice((1024, 2048))}
### train
per_device_train_batch_size: {r.choice((1, 2))}
gradient_accumulation_steps: 8
learning_rate: 1.0e-4
num_train_epochs: 3.0
bf16: true
"""


def torchtitan_toml(r: random.Random) -> str:
    return f"""[job]
dump_folder = "./outputs"
description = "{r.choice(("Llama 3 8B", "Llama 3 70B", "debug"))} training"

[model]
name = "llama3"
flavor = "{r.choice(("8B", "debugmodel", "70B"))}"

[optimizer]
name = "AdamW"
lr = 3e-4

[training]
local_batch_size = {r.choice((1, 2, 4))}
seq_len = {r.choice((2048, 4096, 8192))}
steps = 1000

[parallelism]
data_parallel_replicate_degree = 1
data_parallel_shard_degree = -1
tensor_parallel_degree = {r.choice((1, 2, 4, 8))}
pipeline_parallel_degree = 1

[activation_checkpoint]
mode = "{r.choice(("selective", "full", "none"))}"
"""


def data_yaml(r: random.Random, py: Py) -> str:
    """A data / experiment config no launcher reads (hydra-like)."""
    lines = [f"# {py.name(4)}", "defaults:", "  - _self_", f"seed: {r.randrange(10**4)}", "data:"]
    for _ in range(r.randrange(5, 30)):
        lines.append(f"  {py.name()}: {r.choice((str(r.randrange(10**5)), py.name(2), 'true', 'null'))}")
    lines.append("augment:")
    for _ in range(r.randrange(2, 10)):
        lines.append(f"  - name: {py.name()}\n    p: 0.{r.randrange(10)}")
    return "\n".join(lines) + "\n"


def launch_sh(r: random.Random, kind: str) -> str:
    n = r.choice((2, 4, 8))
    if kind == "trainer":
        cmd = (f"torchrun --nproc_per_node {n} --nnodes 1 train.py --deepspeed configs/ds_zero3.json"
               if r.random() < 0.5 else f"accelerate launch --config_file configs/accelerate.yaml train.py")
    elif kind == "accelerate":
        cmd = f"accelerate launch --config_file configs/accelerate.yaml --num_processes {n} train.py"
    elif kind == "axolotl":
        cmd = "accelerate launch -m axolotl.cli.train configs/axolotl.yaml"
    elif kind == "llamafactory":
        cmd = f"FORCE_TORCHRUN=1 NPROC_PER_NODE={n} llamafactory-cli train configs/llamafactory.yaml"
    elif kind == "torchtitan":
        cmd = f"torchrun --nproc_per_node={n} -m torchtitan.train --job.config_file configs/torchtitan.toml"
    else:
        cmd = f"torchrun --standalone --nproc_per_node {n} train.py"
    return f"""#!/usr/bin/env bash
set -euo pipefail
cd "$(dirname "$0")"
export NCCL_DEBUG=WARN
export OMP_NUM_THREADS={r.choice((1, 4, 8))}
{cmd} "$@"
"""


def sbatch(r: random.Random) -> str:
    nodes = r.choice((1, 2, 4))
    return f"""#!/bin/bash
#SBATCH --job-name=train
#SBATCH --nodes={nodes}
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time=48:00:00
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
srun torchrun --nnodes {nodes} --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint $MASTER_ADDR:29500 train.py
"""


def makefile(r: random.Random) -> str:
    return f""".PHONY: train test lint
train:
\taccelerate launch --config_file configs/accelerate.yaml train.py
test:
\tpython -m pytest -q tests
lint:
\truff check .
data:
\tpython data/preprocess.py --{r.choice(WORDS)}-size {r.randrange(1, 64)}
"""


def tokenizer_json(r: random.Random, py: Py) -> str:
    tokens = ", ".join(f'"<{py.name(1)}_{i}>"' for i in range(r.randrange(5, 60)))
    return f'{{"model_max_length": {r.choice((2048, 4096))}, "padding_side": "right", "additional_special_tokens": [{tokens}]}}\n'


def pyproject(r: random.Random, py: Py) -> str:
    deps = "\n".join(f'  "{py.name(1)}>={r.randrange(1, 5)}.{r.randrange(20)}",' for _ in range(r.randrange(3, 12)))
    return f'[project]\nname = "{py.name(2).replace("_", "-")}"\nversion = "0.{r.randrange(30)}.0"\ndependencies = [\n{deps}\n]\n\n[tool.ruff]\nline-length = 120\n'


def project(seed: str) -> dict:
    r = random.Random(seed)
    py = Py(r)
    kind = r.choice(("trainer", "trainer", "accelerate", "accelerate", "fsdp", "axolotl", "llamafactory", "torchtitan"))
    f = {
        ".gitignore": "__pycache__/\n*.pyc\noutputs/\nwandb/\n",
        "train.py": train_script(r, "trainer" if kind in ("axolotl", "llamafactory", "torchtitan") else kind, py),
        "launch.sh": launch_sh(r, kind),
        "configs/accelerate.yaml": accelerate_yaml(r),
        "configs/ds_zero3.json": deepspeed_json(r),
        "configs/data.yaml": data_yaml(r, py),
        "configs/tokenizer_config.json": tokenizer_json(r, py),
        "pyproject.toml": pyproject(r, py),
        "model/__init__.py": "from .modeling import *  # noqa: F401,F403\n",
        # Half the models are written HF-style (`self.gradient_checkpointing = False` in the model class), which
        # launchlint's pre-filter cannot tell from a training script.
        "model/modeling.py": py.module(r.randrange(6, 18), header=(
            ("class PreTrainedModelBase(nn.Module):", "    def __init__(self):", "        super().__init__()",
             "        self.gradient_checkpointing = False") if r.random() < 0.5 else ())),
        "model/layers.py": py.module(r.randrange(3, 9)),
        "model/attention.py": py.module(r.randrange(2, 6)),
        "data/dataset.py": py.module(r.randrange(2, 6)),
        "data/collate.py": py.module(r.randrange(1, 4)),
        "data/preprocess.py": cli_script(r, py),
        "utils/logging_utils.py": py.module(r.randrange(1, 3)),
        "utils/metrics.py": py.module(r.randrange(1, 4)),
        "eval/evaluate.py": cli_script(r, py),
        "tests/test_model.py": py.module(r.randrange(1, 4)),
        "tests/test_data.py": py.module(r.randrange(1, 3)),
    }
    if kind == "axolotl":
        f["configs/axolotl.yaml"] = axolotl_yaml(r)
    elif kind == "llamafactory":
        f["configs/llamafactory.yaml"] = llamafactory_yaml(r)
    elif kind == "torchtitan":
        f["configs/torchtitan.toml"] = torchtitan_toml(r)
    else:
        f["configs/ablation.yaml"] = data_yaml(r, py)
    f["slurm.sbatch" if r.random() < 0.5 else "Makefile"] = sbatch(r) if r.random() < 0.5 else makefile(r)
    return f


class Writer:
    def __init__(self, out: str):
        self.out = out
        self.digest = hashlib.sha256()
        self.files = 0
        self.bytes = 0

    def write(self, rel: str, text: str):
        path = os.path.join(self.out, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = text.encode()
        with open(path, "wb") as fh:
            fh.write(data)
        self.digest.update(rel.encode() + b"\0" + data + b"\0")
        self.files += 1
        self.bytes += len(data)


def main(argv) -> int:
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out, what = argv[1], argv[2]
    w = Writer(out)
    if what == "small":
        for rel, text in sorted(project("small").items()):
            w.write(rel, text)
    elif what == "mono":
        scale = int(argv[3])
        w.write(".gitignore", "/build/\n/dist/\n*.egg-info/\n")
        w.write(".github/workflows/train.yml", "on: [push]\njobs:\n  smoke:\n    runs-on: ubuntu-latest\n    steps:\n"
                "      - uses: actions/checkout@v4\n      - run: bash projects/team0/p0000/launch.sh\n")
        for i in range(PROJECTS_PER_SCALE * scale):
            for rel, text in sorted(project(f"mono:{i}").items()):
                w.write(f"projects/team{i % 12}/p{i:04d}/{rel}", text)
    elif what == "huge":
        r = random.Random("huge")
        py = Py(r)
        header = ["from transformers import TrainingArguments", ""]
        parts, size = [], 0
        while size < 4 * 1024 * 1024:
            chunk = py.module(40, header if not parts else ())
            parts.append(chunk)
            size += len(chunk)
        w.write("model_zoo.py", "".join(parts))
        text = axolotl_yaml(r, n_datasets=0)
        chunks, size = [text], len(text)
        while size < 32 * 1024 * 1024:
            chunk = axolotl_yaml(r, n_datasets=2000).split("datasets:\n", 1)[1]
            chunks.append(chunk)
            size += len(chunk)
        w.write("datasets.yaml", "".join(chunks))
    elif what == "gitignore":
        n = int(argv[3])
        r = random.Random("gitignore")
        for i in range(n):
            d = f"pkg{i // 100:03d}/mod{i:05d}"
            w.write(f"{d}/.gitignore", f"*.log\nbuild_{i}/\n!keep_{i}.log\n")
            for k in range(4):
                w.write(f"{d}/file{k}.py", f"{r.choice(WORDS)} = {r.randrange(1000)}\n")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(f"{what}: {w.files} files, {w.bytes} bytes, sha256 {w.digest.hexdigest()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
