#!/usr/bin/env python3
"""Ground-truth oracle for DeepSpeed and bitsandbytes launches (companion of run_oracle.py).

For every case of ``ds_cases.json`` (written by ``ds_generate_cases.py``) a fresh Python subprocess runs the
real library code and records the stage that raised (or none), the exception, the warnings and a few effective
values. Case kinds:

  ds_config      ``deepspeed.runtime.config.DeepSpeedConfig(path)`` on the JSON text of the case, written to
                 a file as it would be on disk (hjson, duplicate-key check); ``world`` > 1 is simulated with a
                 data-parallel ``mpu`` object (``DeepSpeedConfig`` asks ``mpu.get_data_parallel_world_size()``).
  ds_initialize  world size 1 on the GPU: ``deepspeed.initialize(model=tiny, optimizer=torch AdamW,
                 config=path)`` and one step; records the engine's ZeRO stage, precision and offload.
  hf_trainer     world size 1 on the GPU: ``TrainingArguments(deepspeed=path | fsdp=..., **training_args)``, a
                 tiny Llama saved locally and loaded with ``from_pretrained`` (optionally quantized by
                 bitsandbytes, with ``device_map`` / ``low_cpu_mem_usage``, before or after the arguments),
                 LoRA when quantized, then ``Trainer.train()`` for one step.
  lightning      world size 1 on the GPU: ``lightning.pytorch.Trainer(strategy=DeepSpeedStrategy(config=...))``
                 ``.fit`` for one step on a tiny module (past Lightning's DeepSpeed >= 0.16 gate: _run_lightning).
  accelerate     ``accelerate launch`` parsing of a config file (reuses run_oracle.py's launcher stages) and
                 the DeepSpeed environment it hands to the script, then ``DeepSpeedPlugin()`` built from it.

Nothing is downloaded: models are built from configs and saved to a temporary folder.

Usage (on a GPU machine with deepspeed and bitsandbytes installed):
    python3 tools/oracle/run_ds_oracle.py --cases tools/oracle/ds_cases.json --out tools/oracle/ds_results.json
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_oracle as base  # noqa: E402  (shared recorder, error records, environment scrubbing)

RESULT_FORMAT = "launchlint-ds-oracle-results/1"
GPU_KINDS = ("ds_initialize", "hf_trainer", "lightning")


def _dist_env():
    os.environ.update({"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "LOCAL_WORLD_SIZE": "1",
                       "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(base._free_port())})


def _write(tmpdir, name, text):
    path = os.path.join(tmpdir, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def _ds_text(case):
    if case.get("ds_text") is not None:
        return case["ds_text"]
    return json.dumps(case["ds"], indent=2) + "\n"


class _DataParallelMPU:
    """Only what DeepSpeedConfig asks of an mpu: the data-parallel world size."""

    def __init__(self, world):
        self.world = world

    def get_data_parallel_world_size(self):
        return self.world

    def get_data_parallel_rank(self):
        return 0

    def get_model_parallel_world_size(self):
        return 1

    def get_model_parallel_rank(self):
        return 0


def _config_values(cfg) -> dict:
    zc = getattr(cfg, "zero_config", None)

    def dev(x):
        return None if x is None else base._json_safe(getattr(x, "device", x))

    return {
        "train_batch_size": cfg.train_batch_size,
        "train_micro_batch_size_per_gpu": cfg.train_micro_batch_size_per_gpu,
        "gradient_accumulation_steps": cfg.gradient_accumulation_steps,
        "zero_stage": base._json_safe(cfg.zero_optimization_stage),
        "fp16": bool(cfg.fp16_enabled),
        "bf16": bool(cfg.bfloat16_enabled),
        "offload_param": dev(getattr(zc, "offload_param", None)),
        "offload_optimizer": dev(getattr(zc, "offload_optimizer", None)),
        "world_size": cfg.world_size,
    }


def _run_ds_config(case, rec, tmpdir):
    rec.stage = "import"
    import deepspeed.runtime.config as ds_config

    path = _write(tmpdir, "ds.json", _ds_text(case))
    rec.stage = "config"
    world = int(case.get("world", 1))
    mpu = None
    if world > 1:
        # DeepSpeedConfig asks dist.get_rank() first and falls back to world size 1 without a process group.
        ds_config.dist.get_rank = lambda *a, **k: 0
        mpu = _DataParallelMPU(world)
    cfg = ds_config.DeepSpeedConfig(path, mpu=mpu)
    rec.result["effective"] = _config_values(cfg)


def _tiny_torch_model():
    import torch

    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(16, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))


def _run_ds_initialize(case, rec, tmpdir):
    rec.stage = "import"
    import deepspeed
    import torch

    path = _write(tmpdir, "ds.json", _ds_text(case))
    _dist_env()
    model = _tiny_torch_model()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    rec.stage = "initialize"
    engine, _, _, _ = deepspeed.initialize(model=model, optimizer=opt, config=path)
    rec.result["effective"] = {
        "zero_stage": engine.zero_optimization_stage(),
        "fp16": bool(engine.fp16_enabled()),
        "bf16": bool(engine.bfloat16_enabled()),
        "offload_param": base._json_safe(engine.zero_offload_param()),
        "offload_optimizer": base._json_safe(engine.zero_offload_optimizer()),
        "train_batch_size": engine.train_batch_size(),
        "train_micro_batch_size_per_gpu": engine.train_micro_batch_size_per_gpu(),
        "gradient_accumulation_steps": engine.gradient_accumulation_steps(),
        "optimizer": type(engine.optimizer).__name__,
    }
    rec.stage = "step"
    dtype = torch.bfloat16 if engine.bfloat16_enabled() else torch.float16 if engine.fp16_enabled() else torch.float32
    x = torch.randn(engine.train_micro_batch_size_per_gpu(), 16, device=engine.device, dtype=dtype)
    loss = engine(x).float().pow(2).mean()
    engine.backward(loss)
    engine.step()


def _save_tiny_llama(tmpdir):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=128, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=4, max_position_embeddings=64)
    path = os.path.join(tmpdir, "tiny-llama")
    LlamaForCausalLM(cfg).save_pretrained(path)
    return path


def _dtype(name):
    import torch

    return None if name is None else getattr(torch, name)


def _load_model(spec, model_dir, rec):
    import torch
    from transformers import AutoModelForCausalLM

    spec = spec or {}
    kwargs = {}
    quant = spec.get("quant")
    if quant:
        from transformers import BitsAndBytesConfig

        q = dict(quant)
        for k in ("bnb_4bit_quant_storage", "bnb_4bit_compute_dtype"):
            if k in q:
                q[k] = _dtype(q[k])
        kwargs["quantization_config"] = BitsAndBytesConfig(**q)
    for k in ("load_in_8bit", "load_in_4bit", "low_cpu_mem_usage"):
        if k in spec:
            kwargs[k] = spec[k]
    if "device_map" in spec:
        dm = spec["device_map"]
        kwargs["device_map"] = {"": 0} if dm == "local" else dm
    if spec.get("dtype"):
        kwargs["dtype"] = _dtype(spec["dtype"])
    rec.stage = "from_pretrained"
    model = AutoModelForCausalLM.from_pretrained(model_dir, **kwargs)
    info = {"param_dtypes": sorted({str(p.dtype).replace("torch.", "") for p in model.parameters()}),
            "zero3_partitioned": any(hasattr(p, "ds_id") for p in model.parameters()),
            "quantized": bool(getattr(model, "is_quantized", False))}
    if spec.get("lora") or quant or spec.get("load_in_8bit") or spec.get("load_in_4bit"):
        from peft import LoraConfig, get_peft_model

        rec.stage = "peft"
        model = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj", "v_proj"]))
    del torch
    return model, info


def _run_hf_trainer(case, rec, tmpdir):
    rec.stage = "import"
    from transformers import Trainer, TrainingArguments

    _dist_env()
    model_dir = _save_tiny_llama(tmpdir)
    targs = dict(case.get("training_args") or {})
    if case.get("ds") is not None or case.get("ds_text") is not None:
        targs["deepspeed"] = _write(tmpdir, "ds.json", _ds_text(case))
    targs.setdefault("max_steps", 1)
    spec = case.get("model") or {}
    model, info = None, None
    if spec.get("load_before_args"):
        model, info = _load_model(spec, model_dir, rec)
    rec.stage = "training_args"
    args = TrainingArguments(output_dir=os.path.join(tmpdir, "out"), report_to="none", save_strategy="no",
                             logging_strategy="no", **targs)
    if model is None:
        model, info = _load_model(spec, model_dir, rec)
    rec.result["model"] = info
    rec.stage = "trainer"
    trainer = Trainer(model=model, args=args, train_dataset=base._TinyLMData())
    rec.stage = "train"
    trainer.train()
    eff = {}
    engine = getattr(trainer, "model_wrapped", None)
    if engine is not None and hasattr(engine, "zero_optimization_stage"):
        eff = {"zero_stage": engine.zero_optimization_stage(),
               "train_batch_size": engine.train_batch_size(),
               "train_micro_batch_size_per_gpu": engine.train_micro_batch_size_per_gpu(),
               "gradient_accumulation_steps": engine.gradient_accumulation_steps(),
               "fp16": bool(engine.fp16_enabled()), "bf16": bool(engine.bfloat16_enabled())}
    eff["wrapper"] = type(engine).__name__ if engine is not None else None
    rec.result["effective"] = eff


def _run_lightning(case, rec, tmpdir):
    rec.stage = "import"
    import lightning.pytorch as pl
    import torch
    import lightning.pytorch.strategies.deepspeed as pl_deepspeed
    from lightning.pytorch.strategies import DeepSpeedStrategy

    # Lightning 2.6 refuses a DeepSpeed older than 0.16 under torch >= 2.6 in DeepSpeedStrategy.__init__ (Lightning
    # 2.6.5 `src/lightning/pytorch/strategies/deepspeed.py:267-279`), because such a DeepSpeed cannot load a full
    # checkpoint under torch.load's `weights_only=True` default. Only 0.14.5 runs on the oracle machine (pydantic 2
    # cannot be built there), and these cases load no checkpoint: the gate's module flag is set, nothing else is
    # changed, and the record says so. Everything after it (config checks, deepspeed.initialize, the step) is real.
    gate = getattr(pl_deepspeed, "_DEEPSPEED_GREATER_EQUAL_0_16", None)
    if gate is not None and not bool(gate):
        pl_deepspeed._DEEPSPEED_GREATER_EQUAL_0_16 = True
        rec.result["passed_gate"] = ("lightning.pytorch.strategies.deepspeed._DEEPSPEED_GREATER_EQUAL_0_16 set True "
                                     "(DeepSpeed 0.14.5 under torch >= 2.6; no checkpoint is loaded)")

    _dist_env()

    class Tiny(pl.LightningModule):
        def __init__(self):
            super().__init__()
            self.net = _tiny_torch_model()

        def training_step(self, batch, _):
            return self.net(batch[0]).float().pow(2).mean()

        def configure_optimizers(self):
            return torch.optim.AdamW(self.parameters(), lr=1e-3)

    data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(8, 16)), batch_size=2)
    rec.stage = "strategy"
    config = case["ds"] if case.get("ds") is not None else _write(tmpdir, "ds.json", _ds_text(case))
    strategy = DeepSpeedStrategy(config=config)
    rec.stage = "fit"
    trainer = pl.Trainer(strategy=strategy, accelerator="gpu", devices=1, max_steps=1, logger=False,
                         enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False,
                         **(case.get("trainer_kwargs") or {}))
    trainer.fit(Tiny(), data)
    rec.result["effective"] = {k: base._json_safe(strategy.config.get(k)) for k in
                               ("train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps")}


def _run_accelerate(case, rec, tmpdir):
    if case.get("ds") is not None or case.get("ds_text") is not None:
        ds_path = _write(tmpdir, case.get("ds_name", "ds.json"), _ds_text(case))
        text = case["config_text"].replace("@DS@", ds_path)
    else:
        text = case["config_text"]
    acase = {"config_text": text, "config_format": "yaml", "launch_flags": case.get("launch_flags") or []}
    env = base._launcher(acase, rec, tmpdir)
    rec.result["launch_env"] = base._selected_env(env)
    base._set_process_env(env)
    rec.stage = "plugin"
    from accelerate.utils import DeepSpeedPlugin

    plugin = DeepSpeedPlugin()
    rec.result["effective"] = {"zero_stage": base._json_safe(plugin.zero_stage),
                               "deepspeed_config": base._json_safe(plugin.deepspeed_config)}


RUNNERS = {"ds_config": _run_ds_config, "ds_initialize": _run_ds_initialize, "hf_trainer": _run_hf_trainer,
           "lightning": _run_lightning, "accelerate": _run_accelerate}


def child_main(case_path, out_path):
    with open(case_path, encoding="utf-8") as f:
        case = json.load(f)
    rec = base.CaseRecorder()
    base._install_warning_capture(rec)
    started = time.time()
    error = None
    with tempfile.TemporaryDirectory(prefix="ds-oracle-") as tmpdir:
        try:
            RUNNERS[case["kind"]](case, rec, tmpdir)
        except BaseException as exc:  # noqa: BLE001 - every failure is a result
            error = base._error_record(exc, getattr(exc, "__oracle_stderr__", ""))
            error["traceback_tail"] = traceback.format_exc().splitlines()[-12:]
        finally:
            base._shutdown_process_group()
    result = {"id": case["id"], "stage": (rec.stage or "harness") if error else None, "error": error}
    for key in ("effective", "model", "launcher", "launch_env", "passed_gate"):
        if key in rec.result:
            result[key] = rec.result[key]
    result["warnings"] = rec.warnings[:40]
    result["elapsed_s"] = round(time.time() - started, 2)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(result, f)


def run_one(case, workdir, base_env, timeout):
    case_path = os.path.join(workdir, f"{case['id']}.case.json")
    out_path = os.path.join(workdir, f"{case['id']}.result.json")
    with open(case_path, "w", encoding="utf-8") as f:
        json.dump(case, f)
    started = time.time()
    try:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", case_path, out_path],
                              env=dict(base_env), capture_output=True, text=True, timeout=timeout)
        rc, stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as exc:
        rc, stderr = "timeout", str(exc.stderr or "")
    if os.path.exists(out_path):
        with open(out_path, encoding="utf-8") as f:
            result = json.load(f)
    else:
        result = {"id": case["id"], "stage": "harness", "warnings": [],
                  "error": {"type": "HarnessError", "message": f"child exited with {rc}", "where": None,
                            "stderr_tail": stderr.splitlines()[-20:]},
                  "elapsed_s": round(time.time() - started, 2)}
    return {"id": case["id"], "input": case, **{k: v for k, v in result.items() if k != "id"}}


def library_versions():
    from importlib import metadata

    out = base.library_versions()
    for dist in ("bitsandbytes", "hjson", "pydantic"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out


# Errors that say a library is missing or too old on the machine that ran the case: the case was not run, so it
# is not recorded (an earlier run's record of it, if any, is kept).
ENVIRONMENT_ERRORS = (
    "requires bitsandbytes",                      # transformers' quantizer: bitsandbytes not installed
    "requires DeepSpeed >= ",                     # Lightning 2.6 with torch >= 2.6 needs DeepSpeed >= 0.16
)


def environment_error(record) -> bool:
    error = record.get("error") or {}
    return error.get("type") == "ImportError" and any(m in str(error.get("message", "")) for m in ENVIRONMENT_ERRORS)


def merge_results(paths, out, cases_path) -> int:
    """Merges result files, oldest first: a later run's record of a case replaces an earlier one unless the later
    run could not run it (``environment_error``). Each case keeps the index of its run in ``runs`` (its versions),
    and the top-level ``versions`` are those of the newest run."""
    with open(cases_path, encoding="utf-8") as f:
        order = [c["id"] for c in json.load(f)["cases"]]
    runs, chosen = [], {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        offset = len(runs)
        if doc.get("runs"):
            # An earlier merge (ds_results.json itself): its runs are kept, each case with the index of its own.
            runs.extend(doc["runs"])
        else:
            runs.append({"generated_at": doc.get("generated_at"), "versions": doc.get("versions"),
                         "wall_s": doc.get("wall_s"), "file": os.path.basename(path)})
        for record in doc["cases"]:
            if environment_error(record):
                continue
            chosen[record["id"]] = dict(record, run=offset + int(record.get("run", 0)) if doc.get("runs") else offset)
    done = [chosen[i] for i in order if i in chosen]
    by_stage = {}
    for r in done:
        by_stage[str(r["stage"])] = by_stage.get(str(r["stage"]), 0) + 1
    doc = {"format": RESULT_FORMAT,
           "generated_by": "tools/oracle/run_ds_oracle.py --merge " + " ".join(os.path.basename(p) for p in paths),
           "generated_at": runs[-1]["generated_at"], "complete": len(done) == len(order),
           "versions": runs[-1]["versions"], "runs": runs,
           "summary": {"cases": len(done), "not_recorded": [i for i in order if i not in chosen],
                       "by_stage": dict(sorted(by_stage.items()))},
           "cases": done}
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(out + ".tmp", out)
    print(f"ds-oracle: merged {len(paths)} runs into {out}: {len(done)} of {len(order)} cases recorded",
          file=sys.stderr)
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description="launchlint DeepSpeed / bitsandbytes oracle")
    parser.add_argument("--cases", default=str(Path(__file__).with_name("ds_cases.json")))
    parser.add_argument("--out", default=str(Path(__file__).with_name("ds_results.json")))
    parser.add_argument("--jobs", type=int, default=max(1, min(14, (os.cpu_count() or 2) - 2)))
    parser.add_argument("--gpu-jobs", type=int, default=6)
    parser.add_argument("--timeout", type=int, default=240)
    parser.add_argument("--only", default=None)
    parser.add_argument("--group", default=None, help="comma-separated groups")
    parser.add_argument("--merge", nargs="+", metavar="RESULTS",
                        help="merge result files (oldest first) into --out; see merge_results")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child_main(*args.child)
        return 0
    if args.merge:
        return merge_results(args.merge, args.out, args.cases)
    with open(args.cases, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in wanted]
    if args.group:
        groups = set(args.group.split(","))
        cases = [c for c in cases if c["group"] in groups and c.get("ds") is None and c.get("ds_text") is None
                 or c["group"] in groups and c["kind"] == "accelerate"]
    started = time.time()
    versions = library_versions()
    print(f"ds-oracle: {len(cases)} cases, versions={versions}", file=sys.stderr, flush=True)
    results = {}
    gpu = threading.Semaphore(args.gpu_jobs)

    def write(complete):
        done = [results[c["id"]] for c in cases if c["id"] in results]
        by_stage = {}
        for r in done:
            by_stage[str(r["stage"])] = by_stage.get(str(r["stage"]), 0) + 1
        doc = {"format": RESULT_FORMAT,
               "generated_by": "tools/oracle/run_ds_oracle.py --cases " + os.path.relpath(args.cases),
               "generated_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "complete": complete and len(done) == len(cases), "versions": versions,
               "wall_s": round(time.time() - started, 1),
               "summary": {"cases": len(done), "by_stage": dict(sorted(by_stage.items()))}, "cases": done}
        with open(args.out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(args.out + ".tmp", args.out)
        return doc

    with tempfile.TemporaryDirectory(prefix="ds-oracle-run-") as workdir:
        hf_home = os.path.join(workdir, "hf_home")
        os.makedirs(hf_home)
        env = base.clean_environment(hf_home)

        def task(case):
            if case["kind"] in GPU_KINDS:
                with gpu:
                    return run_one(case, workdir, env, args.timeout)
            return run_one(case, workdir, env, args.timeout)

        ordered = sorted(cases, key=lambda c: c["kind"] not in GPU_KINDS)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for n, fut in enumerate(concurrent.futures.as_completed([pool.submit(task, c) for c in ordered]), 1):
                r = fut.result()
                results[r["id"]] = r
                if n % 25 == 0:
                    write(False)
                    print(f"ds-oracle: {n}/{len(cases)} ({time.time() - started:.0f}s)", file=sys.stderr, flush=True)
    doc = write(True)
    print(f"ds-oracle: wrote {args.out}: {doc['summary']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
