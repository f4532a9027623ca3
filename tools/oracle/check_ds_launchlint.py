#!/usr/bin/env python3
"""Compare launchlint with the DeepSpeed / bitsandbytes oracle's results (tools/oracle/ds_results.json).

Stdlib only. For every recorded case, the launch the oracle ran is written to a temporary folder (the DeepSpeed JSON
as ``ds.json``, the accelerate config, a ``train.py`` that builds what the oracle built, a ``launch.sh``) and
``launchlint --isolated --format json .`` runs there. A case where the library raised (``stage`` set) needs at least
one error-level finding (else **missed-error**); a case that ran cleanly must have none (else **false-error**).
``tools/oracle/ds_expected_disagreements.json`` lists the known ones ``[{id, kind, reason}]``; an unlisted
disagreement, or a listed one that no longer occurs, fails the run.

    python3 tools/oracle/check_ds_launchlint.py --launchlint build/launchlint
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def py_value(v) -> str:
    """A Python literal for a JSON value (dtype names become torch attributes where the oracle passed dtypes)."""
    return repr(v)


def model_code(spec: dict) -> list[str]:
    lines = []
    kwargs = []
    quant = spec.get("quant")
    if quant:
        args = []
        for k, v in quant.items():
            if k in ("bnb_4bit_quant_storage", "bnb_4bit_compute_dtype"):
                args.append(f"{k}=torch.{v}")
            else:
                args.append(f"{k}={py_value(v)}")
        lines.append(f"bnb = BitsAndBytesConfig({', '.join(args)})")
        kwargs.append("quantization_config=bnb")
    for k in ("load_in_8bit", "load_in_4bit", "low_cpu_mem_usage"):
        if k in spec:
            kwargs.append(f"{k}={py_value(spec[k])}")
    if "device_map" in spec:
        kwargs.append('device_map={"": 0}' if spec["device_map"] == "local" else f"device_map={py_value(spec['device_map'])}")
    if spec.get("dtype"):
        kwargs.append(f"dtype=torch.{spec['dtype']}")
    lines.append(f"model = AutoModelForCausalLM.from_pretrained(\"tiny-llama\"{''.join(', ' + a for a in kwargs)})")
    return lines


def materialise(case: dict, folder: Path) -> bool:
    """Writes the launch; False when the kind is not materialised."""
    inp = case["input"]
    kind = inp["kind"]
    ds_text = inp.get("ds_text")
    if ds_text is None and inp.get("ds") is not None:
        ds_text = json.dumps(inp["ds"], indent=2) + "\n"
    if kind == "hf_trainer":
        targs = dict(inp.get("training_args") or {})
        if ds_text is not None:
            (folder / "ds.json").write_text(ds_text)
            targs["deepspeed"] = "ds.json"
        spec = inp.get("model") or {}
        body = ["import torch", "from transformers import AutoModelForCausalLM, BitsAndBytesConfig, Trainer, TrainingArguments", ""]
        load = model_code(spec)
        args = "args = TrainingArguments(output_dir=\"out\"" + "".join(f", {k}={py_value(v)}" for k, v in targs.items()) + ")"
        body += (load + [args]) if spec.get("load_before_args") else ([args] + load)
        body.append("Trainer(model=model, args=args).train()")
        (folder / "train.py").write_text("\n".join(body) + "\n")
        (folder / "launch.sh").write_text("torchrun --nproc_per_node 1 train.py\n")
        return True
    if kind == "accelerate":
        (folder / "accelerate.yaml").write_text(inp["config_text"].replace("@DS@", "ds.json"))
        if ds_text is not None:
            (folder / "ds.json").write_text(ds_text)
        (folder / "train.py").write_text("from accelerate import Accelerator\n\naccelerator = Accelerator()\n")
        (folder / "launch.sh").write_text("accelerate launch --config_file accelerate.yaml train.py\n")
        return True
    if kind == "lightning" and inp.get("ds") is not None:
        # What the oracle ran: Lightning's Trainer with DeepSpeedStrategy(config=<the case's dict>) on one GPU.
        body = ["import lightning.pytorch as pl", "import torch", "from lightning.pytorch.strategies import DeepSpeedStrategy",
                "", "", "class Tiny(pl.LightningModule):", "    def __init__(self):", "        super().__init__()",
                "        self.net = torch.nn.Linear(16, 1)", "", "    def training_step(self, batch, _):",
                "        return self.net(batch[0]).pow(2).mean()", "", "    def configure_optimizers(self):",
                "        return torch.optim.AdamW(self.parameters(), lr=1e-3)", "", "",
                "data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(8, 16)), batch_size=2)",
                f"strategy = DeepSpeedStrategy(config={py_value(inp['ds'])})",
                'trainer = pl.Trainer(strategy=strategy, accelerator="gpu", devices=1, max_steps=1)',
                "trainer.fit(Tiny(), data)"]
        (folder / "train.py").write_text("\n".join(body) + "\n")
        (folder / "launch.sh").write_text("python train.py\n")
        return True
    if kind in ("ds_config", "ds_initialize") and ds_text is not None:
        # What the oracle ran, as a launch: plain DeepSpeed (no HF integration fills "auto") on the case's
        # data-parallel size (``ds_config``: DeepSpeedConfig with that size; ``ds_initialize``: one process and a
        # client optimizer).
        (folder / "ds.json").write_text(ds_text)
        client = kind == "ds_initialize"
        body = ["import deepspeed", "import torch", "", "model = torch.nn.Linear(16, 1)"]
        if client:
            body.append("optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)")
            body.append('engine, _, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, config="ds.json")')
        else:
            body.append('engine, _, _, _ = deepspeed.initialize(model=model, model_parameters=model.parameters(), '
                        'config="ds.json")')
        (folder / "train.py").write_text("\n".join(body) + "\n")
        world = 1 if client else int(inp.get("world", 1))
        (folder / "launch.sh").write_text(f"torchrun --nproc_per_node {world} train.py\n")
        return True
    return False


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--launchlint", required=True)
    ap.add_argument("--results", default=str(HERE / "ds_results.json"))
    ap.add_argument("--expected", default=str(HERE / "ds_expected_disagreements.json"))
    ap.add_argument("--list-unlisted", action="store_true")
    args = ap.parse_args(argv)
    args.launchlint = str(Path(args.launchlint).resolve())
    results = json.loads(Path(args.results).read_text())["cases"]
    expected = {(e["id"], e["kind"]): e for e in json.loads(Path(args.expected).read_text())}
    found, compared, agree = set(), 0, 0
    for case in results:
        with tempfile.TemporaryDirectory(prefix="ds-agree-") as tmp:
            folder = Path(tmp)
            if not materialise(case, folder):
                continue
            proc = subprocess.run([args.launchlint, "--isolated", "--format", "json", "."], cwd=folder,
                                  capture_output=True, text=True)
            if proc.returncode not in (0, 1):
                print(f"FAIL {case['id']}: launchlint exited {proc.returncode}: {proc.stderr.strip()[:300]}")
                return 1
            findings = json.loads(proc.stdout or "[]")
            if isinstance(findings, dict):
                findings = findings.get("diagnostics") or findings.get("findings") or []
            errors = [f for f in findings if f.get("severity") == "error"]
            compared += 1
            raised = case.get("stage") is not None
            if raised and not errors:
                found.add((case["id"], "missed-error"))
            elif not raised and errors:
                found.add((case["id"], "false-error"))
            else:
                agree += 1
    unlisted = sorted(found - set(expected))
    stale = sorted(set(expected) - found)
    print(f"ds-oracle agreement: {agree}/{compared} cases agree on error/no-error; "
          f"{len(found)} known disagreements, {len(unlisted)} unlisted, {len(stale)} stale")
    if args.list_unlisted:
        print(json.dumps([{"id": i, "kind": k, "reason": ""} for i, k in unlisted], indent=1))
    for i, k in unlisted:
        print(f"FAIL unlisted {k}: {i}")
    for i, k in stale:
        print(f"FAIL stale {k}: {i}")
    return 1 if unlisted or stale else 0


if __name__ == "__main__":
    sys.exit(main())
