#!/usr/bin/env python3
"""Ground-truth oracle for whole launches: the files launchlint reads, run by the real libraries.

Every case of ``lib_cases.json`` (written by ``lib_generate_cases.py``) is a small project: ``files`` (a
``launch.sh`` and the scripts, YAML and ``config.json`` files it uses) plus ``oracle`` (how to run it). Each case
runs in a fresh Python subprocess, in a temporary folder holding exactly those files:

  run   ``bash launch.sh`` with the real ``python``, ``accelerate``, ``torchrun`` and ``deepspeed`` (wrappers around
        this interpreter, so the launch uses the libraries under test; ``deepspeed`` needs DeepSpeed importable, e.g.
        carried with install_carried.sh). Tiny models named in ``oracle.models`` are
        first saved (weights + config) into their folders, from the ``config.json`` the case ships: nothing is
        downloaded. The launch "raised" when its exit status is not 0.
  dry   ``bash launch.sh`` with recording stand-ins for ``accelerate``, ``torchrun``, ``python`` and
        ``deepspeed`` (nothing starts), then every recorded command goes through the real launcher code:
        accelerate's ``launch_command_parser`` + ``_validate_launch_command`` + the environment its launcher
        would build (``prepare_multi_gpu_env`` / ``prepare_simple_launcher_cmd_env``), torch's
        ``torch.distributed.run`` (``get_args_parser`` + ``config_from_args``) or ``torch.distributed.launch``
        argument handling, and then the training script runs for real (one process, CPU) with exactly the
        arguments the launcher would hand it. Multi-node and multi-GPU launches are never started; what the
        launcher would start (processes per node, visible GPUs) is recorded and compared with what the config
        says ("anomalies").
        ``llamafactory-cli CMD CONFIG`` goes through the subcommand's own argument parsing in LLaMA-Factory
        (``llamafactory_main``; no model is loaded).
  slurm ``#SBATCH`` directives of the case's batch script are turned into the variables ``srun`` sets for rank 0
        (``SLURM_NTASKS``, ``SLURM_NTASKS_PER_NODE``, ``SLURM_NNODES``, ...) and the ``srun`` command's script runs
        in one process with them.

Each result: ``outcome`` = ``raised`` (a launcher step or the script failed), ``misbehaved`` (everything ran, but
with ``anomalies``: a shell line run as a command of its own, fewer processes than configured, GPU ids not
matching the processes), ``clean``, or ``unavailable`` (a library the case needs is not installed: not a
result). ``error`` = {type, message, where} of the primary exception (from the traceback on stderr).

Usage (GPU machine with the libraries; nothing is downloaded):
    python3 tools/oracle/run_lib_oracle.py --cases tools/oracle/lib_cases.json --out tools/oracle/lib_results.json
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run_oracle as base  # noqa: E402  (environment scrubbing, library versions)

RESULT_FORMAT = "launchlint-lib-oracle-results/1"
MISSING_LIBS = ("trl", "datasets", "bitsandbytes", "deepspeed", "lightning", "peft", "tyro", "torchtitan", "torchdata",
                "torchao", "llamafactory", "omegaconf", "unsloth")

EXC_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Warning|Interrupt|NotFound))(?::\s?(.*))?$")
RANK_PREFIX = re.compile(r"^\[(?:rank|default)\d+\]:\s?")  # torch prefixes a rank's uncaught traceback
FILE_LINE = re.compile(r'^\s*File "([^"]+)", line (\d+)')
WRAPPER_EXC = ("ChildFailedError", "CalledProcessError", "torch.distributed.elastic.multiprocessing.errors.ChildFailedError",
               "subprocess.CalledProcessError")


# ----------------------------------------------------------------------------------------------------------------
# stderr -> error record


def parse_errors(text: str, folder: str | None = None) -> list[dict]:
    """Every exception line of the tracebacks in ``text`` (in order), with the innermost library frame above it,
    plus argparse's ``error:`` lines and Python's ``can't open file``. Paths inside the case folder are written
    relative to it."""
    if folder:
        text = text.replace(os.path.realpath(folder) + "/", "").replace(folder + "/", "")
    out = []
    last_where = None
    for raw in text.splitlines():
        line = RANK_PREFIX.sub("", raw.rstrip())
        m = FILE_LINE.match(line)
        if m:
            short = base._short_path(m.group(1))
            last_where = f"{short}:{m.group(2)}"
            continue
        if line.startswith("Traceback"):
            last_where = None
            continue
        s = line.strip()
        if ": error: " in s and s.split(":", 1)[0].endswith((".py", "launch", "torchrun", "accelerate", "run.py")):
            out.append({"type": "SystemExit", "message": s.split(": error: ", 1)[1][:500], "where": "argparse"})
            continue
        if "can't open file" in s and "No such file" in s:
            out.append({"type": "FileNotFoundError", "message": s[:500], "where": "python"})
            continue
        m = EXC_LINE.match(s)
        if m and not s.startswith(("UserWarning", "FutureWarning", "DeprecationWarning")) and "Warning" not in m.group(1):
            out.append({"type": m.group(1).rsplit(".", 1)[-1], "message": (m.group(2) or "")[:500], "where": last_where})
    return out


def primary_error(errors: list[dict]) -> dict | None:
    for e in errors:
        if e["type"] not in ("ChildFailedError", "CalledProcessError", "SystemExit") or e["where"] == "argparse":
            return e
    return errors[0] if errors else None


def unavailable_lib(errors: list[dict]) -> str | None:
    for e in errors:
        # PackageNotFoundError: a mandatory dependency check (transformers' require_version, which LLaMA-Factory's
        # check_version calls) finding the distribution missing.
        if e["type"] in ("ModuleNotFoundError", "ImportError", "PackageNotFoundError"):
            for lib in MISSING_LIBS:
                if f"'{lib}'" in e["message"] or f"named '{lib}." in e["message"] or f" {lib} " in e["message"]:
                    return lib
    return None


# ----------------------------------------------------------------------------------------------------------------
# the case folder


def write_files(case: dict, folder: str):
    for rel, text in case["files"].items():
        path = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(path) or folder, exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def save_models(case: dict, folder: str, rec: dict):
    """Weights for each tiny model folder, from the config.json the case ships (nothing downloaded)."""
    for spec in case["oracle"].get("models") or []:
        path = os.path.join(folder, spec["path"])
        import torch
        from transformers import AutoConfig

        torch.manual_seed(0)
        config = AutoConfig.from_pretrained(path)
        import transformers

        cls = getattr(transformers, spec.get("class", "AutoModelForCausalLM"))
        model = cls.from_config(config)
        model.save_pretrained(path)
        rec.setdefault("models", {})[spec["path"]] = {
            "class": type(model).__name__,
            "layer_classes": sorted({type(m).__name__ for m in model.modules() if "Layer" in type(m).__name__
                                     or type(m).__name__.endswith("Block")}),
        }


def tool_wrappers(folder: str) -> str:
    """``python``/``python3``/``accelerate``/``torchrun``/``deepspeed`` running this interpreter."""
    bindir = os.path.join(folder, ".oracle-bin")
    os.makedirs(bindir, exist_ok=True)
    py = sys.executable
    scripts = {
        "python": f'#!/bin/sh\nexec "{py}" "$@"\n',
        "python3": f'#!/bin/sh\nexec "{py}" "$@"\n',
        "accelerate": f'#!/bin/sh\nexec "{py}" -m accelerate.commands.accelerate_cli "$@"\n',
        "torchrun": f'#!/bin/sh\nexec "{py}" -m torch.distributed.run "$@"\n',
        # DeepSpeed's `bin/deepspeed` runs deepspeed.launcher.runner.main (DeepSpeed carried: install_carried.sh).
        "deepspeed": f'#!/bin/sh\nexec "{py}" -m deepspeed.launcher.runner "$@"\n',
    }
    for name, text in scripts.items():
        p = os.path.join(bindir, name)
        with open(p, "w") as f:
            f.write(text)
        os.chmod(p, 0o755)
    return bindir


def stub_wrappers(folder: str, log: str) -> str:
    """Stand-ins that record their argv (NUL-separated, one file per call) and start nothing."""
    bindir = os.path.join(folder, ".oracle-stubs")
    os.makedirs(bindir, exist_ok=True)
    text = ('#!/bin/sh\nn=$(date +%s%N)\nout="' + log + '/call.$n.$$"\n'
            '{ printf \'%s\\0\' "$(basename "$0")"; for a in "$@"; do printf \'%s\\0\' "$a"; done; } > "$out"\n'
            # The deepspeed launcher reads CUDA_VISIBLE_DEVICES from its environment (LCH006).
            'if [ -n "${CUDA_VISIBLE_DEVICES+set}" ]; then printf \'%s\' "$CUDA_VISIBLE_DEVICES" > "$out.cvd"; fi\n'
            # LLaMA-Factory's launcher reads these from its environment (LCH008: ALLOW_EXTRA_ARGS).
            "env | grep -E '^(ALLOW_EXTRA_ARGS|FORCE_TORCHRUN|NPROC_PER_NODE)=' > \"$out.env\"\n"
            'exit 0\n')
    for name in ("python", "python3", "accelerate", "torchrun", "deepspeed", "srun", "llamafactory-cli"):
        p = os.path.join(bindir, name)
        with open(p, "w") as f:
            f.write(text)
        os.chmod(p, 0o755)
    return bindir


def run_bash(script: str, folder: str, env: dict, timeout: int) -> dict:
    started = time.time()
    try:
        proc = subprocess.run(["bash", script], cwd=folder, env=env, capture_output=True, text=True, timeout=timeout)
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as exc:
        rc = "timeout"
        out = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
    return {"rc": rc, "stdout": out, "stderr": err, "elapsed_s": round(time.time() - started, 2)}


def shell_anomalies(stderr: str) -> list[str]:
    out = []
    for line in stderr.splitlines():
        if "command not found" in line:
            out.append("shell: " + line.strip()[:200])
    return out


# ----------------------------------------------------------------------------------------------------------------
# dry mode: the real launcher code on the recorded commands


def read_calls(log: str) -> list[list[str]]:
    calls = []
    for name in sorted(os.listdir(log)):
        if name.endswith((".cvd", ".env")):
            continue
        with open(os.path.join(log, name), "rb") as f:
            parts = f.read().split(b"\0")
        calls.append([p.decode("utf-8", "replace") for p in parts[:-1]])
    return calls


def read_call_cvds(log: str) -> list[str | None]:
    """CUDA_VISIBLE_DEVICES each recorded call saw (None: unset), in the order of read_calls."""
    out = []
    for name in sorted(os.listdir(log)):
        if name.endswith((".cvd", ".env")):
            continue
        cvd = os.path.join(log, name + ".cvd")
        out.append(open(cvd, encoding="utf-8").read() if os.path.exists(cvd) else None)
    return out


def read_call_envs(log: str) -> list[dict]:
    """The launcher variables (ALLOW_EXTRA_ARGS, FORCE_TORCHRUN, NPROC_PER_NODE) each recorded call saw."""
    out = []
    for name in sorted(os.listdir(log)):
        if name.endswith((".cvd", ".env")):
            continue
        path = os.path.join(log, name + ".env")
        pairs = open(path, encoding="utf-8").read().splitlines() if os.path.exists(path) else []
        out.append(dict(p.split("=", 1) for p in pairs if "=" in p))
    return out


def _capture_exit(fn, *a):
    import contextlib
    import io

    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            return fn(*a), None
    except SystemExit as exc:
        lines = [ln for ln in err.getvalue().splitlines() if "error:" in ln]
        msg = lines[-1].split("error:", 1)[1].strip() if lines else f"exit status {exc.code}"
        return None, {"type": "SystemExit", "message": msg, "where": "argparse"}


def _exc_record(exc: BaseException) -> dict:
    import traceback

    where = None
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        short = base._short_path(frame.filename)
        if short != frame.filename:
            where = f"{short}:{frame.lineno}"
            break
    text = str(exc)
    return {"type": type(exc).__name__, "message": (text.splitlines()[0] if text else "")[:500], "where": where}


# The environment accelerate's launcher prepared for its training processes (the last `interpret_accelerate`). A case
# with `launcher_env` runs its script with it, as accelerate would (ACCELERATE_USE_FSDP, FSDP_VERSION, ...); the
# others keep the machine's environment (their script steps print what they parsed, not what accelerate built).
LAUNCHER_ENV: dict = {}


def interpret_accelerate(argv: list[str], step: dict) -> list[str] | None:
    """accelerate launch ARGV -> the command of the training process (rank 0), or None after an error."""
    from accelerate.commands.launch import _validate_launch_command, launch_command_parser
    from accelerate.utils import launch as launch_utils

    if not argv or argv[0] != "launch":
        step["error"] = {"type": "OracleUnsupported", "message": f"accelerate {argv[:1]}", "where": None}
        return None
    parser = launch_command_parser()
    args, err = _capture_exit(parser.parse_args, argv[1:])
    if err:
        step["stage"], step["error"] = "parse", err
        return None
    step["training_script"] = args.training_script
    step["training_script_args"] = list(args.training_script_args)
    step["stage"] = "validate"
    validated = _validate_launch_command(args)
    args = validated[0] if isinstance(validated, tuple) else validated
    step["num_processes"] = args.num_processes
    step["num_machines"] = args.num_machines
    step["stage"] = "env"
    if args.use_deepspeed and not args.cpu:
        step["path"] = "deepspeed"
        env = None
    elif (args.use_fsdp or args.use_megatron_lm or args.multi_gpu) and not args.cpu:
        step["path"] = "multi_gpu"
        env = launch_utils.prepare_multi_gpu_env(args)
        # Where the nodes meet (LCH010): prepare_multi_gpu_env formats main_process_ip into it, None included.
        meet = getattr(args, "rdzv_endpoint", None) or getattr(args, "master_addr", None)
        if int(args.num_machines or 1) > 1:
            step["rendezvous"] = str(meet)
            if meet is None or str(meet).startswith("None"):
                step["anomalies"].append(f"{args.num_machines} machines rendezvous at '{meet}' (no main_process_ip)")
        nproc = int(args.nproc_per_node)
        step["nproc_per_node"] = nproc
        step["nnodes"] = int(args.num_machines or 1)
        step["world_size"] = nproc * step["nnodes"]
        if args.num_processes is not None and step["world_size"] != int(args.num_processes):
            step["anomalies"].append(f"world size {step['world_size']} ({nproc} per node x {step['nnodes']} nodes) "
                                     f"!= num_processes {args.num_processes}")
        if (args.multi_gpu and not (args.use_fsdp or args.use_megatron_lm) and step["world_size"] == 1
                and step["nnodes"] == 1):
            # ACC014: accelerate accepts a multi-GPU launch whose one process count came from the config file
            # (its `--multi_gpu` check reads the command line only) and starts one process: no data parallelism.
            step["anomalies"].append("the multi-GPU launcher starts 1 process on 1 machine (no data parallelism)")
    else:
        step["path"] = "simple"
        _cmd, env = launch_utils.prepare_simple_launcher_cmd_env(args)
        step["world_size"] = 1
        if args.num_processes is not None and int(args.num_processes) > 1:
            step["anomalies"].append(f"one process started (simple launcher) though num_processes={args.num_processes}")
    LAUNCHER_ENV.clear()
    if env is not None:
        LAUNCHER_ENV.update(env)
        cvd = env.get("CUDA_VISIBLE_DEVICES")
        step["cuda_visible_devices"] = cvd
        if cvd and step.get("nproc_per_node") and len(cvd.split(",")) != step["nproc_per_node"]:
            step["anomalies"].append(f"CUDA_VISIBLE_DEVICES={cvd} for {step['nproc_per_node']} processes per node")
    step["stage"] = "script"
    if args.module:
        return [sys.executable, "-m", args.training_script, *args.training_script_args]
    if args.no_python:
        return [args.training_script, *args.training_script_args]
    return [sys.executable, args.training_script, *args.training_script_args]


def interpret_torch(argv: list[str], step: dict, legacy: bool) -> list[str] | None:
    """torchrun ARGV (or python -m torch.distributed.launch ARGV) -> the command of local rank 0."""
    from torch.distributed import run as trun

    if legacy:
        from torch.distributed import launch as tlaunch

        args, err = _capture_exit(tlaunch.parse_args, argv)
    else:
        args, err = _capture_exit(trun.parse_args, argv)
    if err:
        step["stage"], step["error"] = "parse", err
        return None
    step["training_script"] = args.training_script
    step["training_script_args"] = list(args.training_script_args)
    step["stage"] = "config"
    if legacy and args.no_python and not args.use_env:
        raise ValueError("When using the '--no-python' flag, you must also set the '--use-env' flag.")
    config, cmd, cmd_args = trun.config_from_args(args)
    step["nproc_per_node"] = config.nproc_per_node
    step["min_nodes"], step["max_nodes"] = config.min_nodes, config.max_nodes
    step["world_size"] = config.nproc_per_node * config.max_nodes
    # Where the nodes meet (LCH010): on a multi-node launch an endpoint on this machine means every node waits
    # for the others at home.
    step["rdzv_backend"], step["rdzv_endpoint"] = config.rdzv_backend, config.rdzv_endpoint
    host = (config.rdzv_endpoint or "").rsplit(":", 1)[0]
    if config.max_nodes > 1 and host in ("", "localhost", "127.0.0.1"):
        step["anomalies"].append(f"{config.max_nodes} nodes rendezvous at '{config.rdzv_endpoint}' "
                                 f"({config.rdzv_backend}): every node's own machine")
    step["stage"] = "script"
    cmd_args = [a.replace("${local_rank}", "0") for a in cmd_args]
    if os.path.basename(cmd).startswith("python") or cmd == sys.executable:
        cmd = sys.executable
    return [cmd, *cmd_args]


def interpret_deepspeed(argv: list[str], step: dict, env: dict, cvd: str | None, node_gpus: int) -> list[str] | None:
    """deepspeed ARGV -> the command of local rank 0: DeepSpeed's own ``runner.main`` and then ``launch.main`` run on
    the recorded command, with the processes they would start recorded instead of started, the node's GPU count
    given by the case (this machine has one GPU; the resource filters are checked against ``node_gpus``) and the
    ssh reachability check of a hostfile launch answered as reachable. ``CUDA_VISIBLE_DEVICES`` is what the shell
    gave the command."""
    import base64
    import subprocess as sp

    from deepspeed.accelerator import get_accelerator
    from deepspeed.launcher import launch as dsl
    from deepspeed.launcher import runner as dsr

    class _Started:
        pid, returncode = 0, 0

        def poll(self):
            return 0

        def wait(self, *_a, **_k):
            return 0

        def send_signal(self, *_a):
            pass

    spawned = []

    def popen(cmd, env=None, **_kw):
        spawned.append((list(cmd), dict(env or {})))
        return _Started()

    acc = get_accelerator()
    saved_env, saved_argv = dict(os.environ), list(sys.argv)
    saved = (sp.Popen, sp.check_call, sp.check_output)
    os.environ.clear()
    os.environ.update(env)
    os.environ.pop("CUDA_VISIBLE_DEVICES", None)
    if cvd is not None:
        os.environ["CUDA_VISIBLE_DEVICES"] = cvd
    acc.device_count = lambda: node_gpus
    sp.Popen, sp.check_call, sp.check_output = popen, (lambda *a, **k: 0), (lambda *a, **k: b"127.0.0.1\n")
    try:
        step["stage"] = "runner"
        _r, err = _capture_exit(dsr.main, argv)
        if err:
            step["stage"], step["error"] = "parse", err
            return None
        if not spawned:
            step["error"] = {"type": "OracleUnsupported", "message": "the runner started nothing", "where": None}
            return None
        runner_cmd = spawned[0][0]
        at = runner_cmd.index("deepspeed.launcher.launch")
        info = next(a for a in runner_cmd if a.startswith("--world_info="))
        world = json.loads(base64.urlsafe_b64decode(info.split("=", 1)[1]))
        step["world_info"] = world
        step["world_size"] = sum(len(v) for v in world.values())
        step["stage"] = "launch"
        sys.argv = ["deepspeed.launcher.launch", *runner_cmd[at + 1:]]
        dsl.main()
    finally:
        sp.Popen, sp.check_call, sp.check_output = saved
        del acc.device_count
        os.environ.clear()
        os.environ.update(saved_env)
        sys.argv = saved_argv
    if len(spawned) < 2:
        step["error"] = {"type": "OracleUnsupported", "message": "launch started no process", "where": None}
        return None
    cmd, child_env = spawned[1]
    step["nproc_per_node"] = len(spawned) - 1
    step["cuda_visible_devices"] = child_env.get("CUDA_VISIBLE_DEVICES")
    if cvd and step["cuda_visible_devices"] != cvd:
        step["anomalies"].append(f"CUDA_VISIBLE_DEVICES={cvd} set for the launcher; its processes get "
                                 f"CUDA_VISIBLE_DEVICES={step['cuda_visible_devices']}")
    step["stage"] = "script"
    return [sys.executable if a == sys.executable else a for a in cmd]


FAKE_WORLD_SITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_world")
CLAIMED_TORCH_SITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "claimed_torch")


def run_script(cmd: list[str], folder: str, env: dict, timeout: int, step: dict, dist_env: bool = True,
               hide_gpu: bool = True, fake_world: int | None = None, claim_torch: str | None = None):
    senv = dict(env)
    if claim_torch:
        # accelerate's version gates see the torch the case's project pins (claimed_torch/sitecustomize.py).
        assert not (fake_world and fake_world > 1), "one sitecustomize per process"
        senv["ORACLE_CLAIM_TORCH"] = claim_torch
        senv["PYTHONPATH"] = os.pathsep.join(p for p in (CLAIMED_TORCH_SITE, senv.get("PYTHONPATH")) if p)
        step["claimed_torch"] = claim_torch
    if hide_gpu:
        senv["CUDA_VISIBLE_DEVICES"] = ""
    if dist_env:
        senv.update({"RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "1", "LOCAL_WORLD_SIZE": "1",
                     "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": str(base._free_port())})
    if fake_world and fake_world > 1:
        # Rank 0 of the world the launcher starts, on torch's `fake` process group (fake_world/sitecustomize.py):
        # every tensor and hook of rank 0 is real, collectives complete without data. For failures that need two
        # or more processes (ZeRO-3 partitioning) on a machine of one GPU.
        senv.update({"WORLD_SIZE": str(fake_world), "LOCAL_WORLD_SIZE": str(fake_world),
                     "ORACLE_FAKE_WORLD": str(fake_world)})
        senv["PYTHONPATH"] = os.pathsep.join(p for p in (FAKE_WORLD_SITE, senv.get("PYTHONPATH")) if p)
        step["fake_world"] = fake_world
    step["script_cmd"] = [("python" if a == sys.executable else a) for a in cmd]
    try:
        proc = subprocess.run(cmd, cwd=folder, env=senv, capture_output=True, text=True, timeout=timeout)
        step["script_rc"] = proc.returncode
        step["script_stderr_tail"] = proc.stderr.replace(folder + "/", "").splitlines()[-15:]
        step["script_stdout"] = [ln[7:] for ln in proc.stdout.splitlines() if ln.startswith("ORACLE ")][:10]
        if proc.returncode != 0:
            errs = parse_errors(proc.stderr, folder)
            step["error"] = primary_error(errs) or {"type": "ExitStatus", "message": f"exit {proc.returncode}",
                                                     "where": None}
            step["errors"] = errs[:6]
            lib = unavailable_lib(errs)
            if lib:
                step["unavailable"] = lib
    except subprocess.TimeoutExpired:
        step["script_rc"] = "timeout"
        step["error"] = {"type": "Timeout", "message": f"script ran over {timeout}s", "where": None}
    except OSError as exc:
        step["script_rc"] = "oserror"
        step["error"] = {"type": type(exc).__name__, "message": str(exc)[:300], "where": "exec"}


def dry(case: dict, folder: str, env: dict, result: dict):
    os.chdir(folder)  # the launchers resolve relative paths (config files) against the working directory
    log = os.path.join(folder, ".oracle-log")
    os.makedirs(log)
    stubs = stub_wrappers(folder, log)
    benv = dict(env)
    benv["PATH"] = stubs + os.pathsep + env.get("PATH", "")
    shell = run_bash(case["oracle"].get("entry", "launch.sh"), folder, benv, 30)
    result["shell"] = {"rc": shell["rc"], "stderr_tail": shell["stderr"].splitlines()[-10:]}
    anomalies = shell_anomalies(shell["stderr"])
    steps = []
    for call, cvd, call_env in zip(read_calls(log), read_call_cvds(log), read_call_envs(log)):
        tool, argv = call[0], call[1:]
        step = {"argv": call, "anomalies": []}
        steps.append(step)
        try:
            if tool == "accelerate":
                cmd = interpret_accelerate(argv, step)
            elif tool == "torchrun":
                cmd = interpret_torch(argv, step, legacy=False)
            elif tool == "deepspeed":
                cmd = interpret_deepspeed(argv, step, env, cvd, int(case["oracle"].get("node_gpus", 8)))
            elif tool == "llamafactory-cli":
                # LLaMA-Factory's own argument parsing for the subcommand (llamafactory_main), in a process of its own.
                cmd = [sys.executable, os.path.abspath(__file__), "--llamafactory", *argv]
                step["stage"] = "script"
            elif tool in ("python", "python3") and argv[:2] in (["-m", "torch.distributed.run"],):
                cmd = interpret_torch(argv[2:], step, legacy=False)
            elif tool in ("python", "python3") and argv[:2] == ["-m", "torch.distributed.launch"]:
                cmd = interpret_torch(argv[2:], step, legacy=True)
            elif tool in ("python", "python3"):
                cmd = [sys.executable, *argv]
                step["stage"] = "script"
            else:
                step["unavailable"] = tool
                cmd = None
        except BaseException as exc:  # noqa: BLE001 - every failure is a result
            step["error"] = _exc_record(exc)
            missing = (getattr(exc, "name", None) or "").split(".")[0]
            if isinstance(exc, ModuleNotFoundError) and missing in MISSING_LIBS:
                step["unavailable"] = missing
            cmd = None
        m_at = next((i for i, a in enumerate((cmd or [])[:4]) if a == "-m"), None)
        if m_at is not None and cmd[m_at + 1:m_at + 2] == ["torchtitan.train"]:
            # torchtitan's trainer needs GPUs, a tokenizer and data: its start-up checks run instead (titan_main).
            # (torchrun runs `python -u -m torchtitan.train ARGS`.)
            cmd = [sys.executable, os.path.abspath(__file__), "--titan", str(step.get("world_size")),
                   *cmd[m_at + 2:]]
        if call_env:
            step["launcher_env"] = call_env
        script_env = {**env, **call_env} if tool == "llamafactory-cli" else env
        if tool == "accelerate" and case["oracle"].get("launcher_env") and LAUNCHER_ENV:
            script_env = {**env, **{k: v for k, v in LAUNCHER_ENV.items() if k.startswith(("ACCELERATE_", "FSDP_"))}}
            step["launcher_env_to_script"] = sorted(k for k in script_env if k.startswith(("ACCELERATE_", "FSDP_")))
        if cmd is not None and not step.get("error"):
            # A dry case marked `gpu` runs its script step with the GPU visible (LLaMA-Factory with DeepSpeed).
            run_script(cmd, folder, script_env,
                       case["oracle"].get("script_timeout", 90), step, hide_gpu=not case["oracle"].get("gpu"),
                       fake_world=step.get("world_size") if case["oracle"].get("fake_world") else None,
                       claim_torch=case["oracle"].get("claim_torch"))
        want = case["oracle"].get("intended_world")
        if want and step.get("world_size") is not None and step["world_size"] != want:
            step["anomalies"].append(f"the launcher starts {step['world_size']} process(es); the command line asks for {want}")
        anomalies += step["anomalies"]
    result["steps"] = steps
    result["anomalies"] = anomalies
    errors = [s["error"] for s in steps if s.get("error")]
    result["error"] = errors[0] if errors else None
    if any(s.get("unavailable") for s in steps):
        result["unavailable"] = ",".join(s["unavailable"] for s in steps if s.get("unavailable"))


# ----------------------------------------------------------------------------------------------------------------
# run / slurm modes


def run(case: dict, folder: str, env: dict, result: dict):
    bindir = tool_wrappers(folder)
    renv = dict(env)
    renv["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    if case["oracle"].get("models"):
        save_models(case, folder, result)
    shell = run_bash(case["oracle"].get("entry", "launch.sh"), folder, renv, case["oracle"].get("timeout", 150))
    result["rc"] = shell["rc"]
    result["stderr_tail"] = [ln for ln in shell["stderr"].replace(folder + "/", "").splitlines() if ln.strip()][-25:]
    result["stdout_tail"] = shell["stdout"].splitlines()[-8:]
    errs = parse_errors(shell["stderr"], folder)
    result["errors"] = errs[:8]
    result["anomalies"] = shell_anomalies(shell["stderr"])
    for pattern in case["oracle"].get("anomaly_patterns") or []:
        for line in (shell["stdout"] + "\n" + shell["stderr"]).splitlines():
            if re.search(pattern, line):
                result["anomalies"].append("output: " + line.strip()[:240])
                break
    result["error"] = (primary_error(errs) or {"type": "ExitStatus", "message": f"exit {shell['rc']}", "where": None}) \
        if shell["rc"] != 0 else None
    lib = unavailable_lib(errs)
    if lib and shell["rc"] != 0:
        result["unavailable"] = lib
    for line in shell["stdout"].splitlines():
        if line.startswith("ORACLE "):
            result.setdefault("observed", []).append(line[7:].strip()[:300])


SBATCH = re.compile(r"^#SBATCH\s+(--?[\w-]+)(?:[=\s]+(\S+))?")


def slurm(case: dict, folder: str, env: dict, result: dict):
    text = case["files"][case["oracle"].get("entry", "job.sbatch")]
    opts = {}
    for line in text.splitlines():
        m = SBATCH.match(line.strip())
        if m:
            opts[m.group(1).lstrip("-")] = m.group(2)
    nodes = int(opts.get("nodes") or opts.get("N") or 1)
    per_node = opts.get("ntasks-per-node")
    ntasks = int(opts.get("ntasks") or opts.get("n") or (int(per_node) * nodes if per_node else 1))
    senv = dict(env)
    senv.update({"SLURM_NTASKS": str(ntasks), "SLURM_NNODES": str(nodes), "SLURM_JOB_NUM_NODES": str(nodes),
                 "SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NODEID": "0", "SLURM_JOB_ID": "4242",
                 "SLURM_JOB_NAME": "train", "SLURM_NODELIST": "node1", "SLURM_STEP_NODELIST": "node1",
                 "SLURM_LAUNCH_NODE_IPADDR": "127.0.0.1", "SLURM_SRUN_COMM_HOST": "127.0.0.1"})
    if per_node:
        senv["SLURM_NTASKS_PER_NODE"] = str(per_node)
    result["slurm_env"] = {k: v for k, v in senv.items() if k.startswith("SLURM_")}
    srun = [ln for ln in text.splitlines() if ln.strip().startswith("srun ")]
    words = shlex.split(srun[0])[1:]
    while words and words[0].startswith("-"):
        words.pop(0)
    if words and words[0].startswith("python"):
        words[0] = sys.executable
    step = {"anomalies": []}
    # srun sets only SLURM_* (Lightning's SLURMEnvironment reads those), no RANK / WORLD_SIZE.
    run_script(words, folder, senv, case["oracle"].get("timeout", 60), step, dist_env=False)
    result["steps"] = [step]
    result["anomalies"] = []
    # srun starts SLURM_NTASKS tasks; a task whose Trainer counts a smaller world trains on its own.
    for line in step.get("script_stdout") or []:
        if line.startswith("world_size ") and int(line.split()[1]) != ntasks:
            result["anomalies"].append(f"srun starts {ntasks} tasks; each task's Trainer has world_size "
                                       f"{line.split()[1]} (independent trainings)")
    result["error"] = step.get("error")
    lib = unavailable_lib(step.get("errors") or [])
    if lib:
        result["unavailable"] = lib


MODES = {"run": run, "dry": dry, "slurm": slurm}


def titan_main(world: int, argv: list[str]):
    """torchtitan 0.2.2's start-up, in the order of ``Trainer.__init__`` (torchtitan/train.py), without GPUs:
    the real ``ConfigManager().parse_args`` (TOML + command line, unknown keys), the real ``ParallelDims`` (degrees
    vs the world size the launcher gives), the real ``build_model_converters`` (converter names), then the two
    one-line assertions that run later in every rank, evaluated on the real objects: the batch check of
    ``train.py:196-215`` and the sequence-length check of ``models/llama3/infra/parallelize.py:69-74`` (with
    ``ParallelDims.seq_len_divisor``), and the real ``maybe_enable_async_tp`` when tensor parallelism is on."""
    from torchtitan.config import ConfigManager
    from torchtitan.distributed import ParallelDims

    config = ConfigManager().parse_args(argv)
    p = config.parallelism
    pd = ParallelDims(dp_shard=p.data_parallel_shard_degree, dp_replicate=p.data_parallel_replicate_degree,
                      cp=p.context_parallel_degree, tp=p.tensor_parallel_degree, pp=p.pipeline_parallel_degree,
                      ep=p.expert_parallel_degree, etp=p.expert_tensor_parallel_degree, world_size=world)
    print(f"ORACLE parallel_dims dp_replicate={pd.dp_replicate} dp_shard={pd.dp_shard} cp={pd.cp} tp={pd.tp} "
          f"pp={pd.pp} world={world}", flush=True)
    from torchtitan.protocols.model_converter import _registry_model_converter_cls, build_model_converters

    missing = [n for n in config.model.converters if n not in _registry_model_converter_cls]
    if missing:
        build_model_converters(config, pd)  # raises KeyError for the first unregistered name
    elif config.model.converters:
        try:
            build_model_converters(config, pd)
        except ImportError as exc:  # a registered converter whose library (torchao) is not installed
            print(f"ORACLE converters registered; constructing them needs {exc}", flush=True)
    batch_degree = pd.dp_replicate * pd.dp_shard if pd.dp_enabled else 1
    gbs = config.training.global_batch_size
    if gbs < 0:
        gbs = config.training.local_batch_size * batch_degree
    assert gbs % (config.training.local_batch_size * batch_degree) == 0, (
        f"global batch size must be multiple of local batch size times data-parallel degree ({gbs} % "
        f"({config.training.local_batch_size} * {batch_degree}) != 0)")
    assert config.training.seq_len % pd.seq_len_divisor == 0, (
        f"Sequence length {config.training.seq_len} must be divisible by the product of TP degree ({pd.tp}) "
        f"and 2 * CP degree ({pd.cp}).")
    if pd.tp_enabled:
        from torchtitan.distributed.tensor_parallel import maybe_enable_async_tp

        maybe_enable_async_tp(config, None)
    print("ORACLE torchtitan start-up checks passed", flush=True)


def llamafactory_main(argv: list[str]):
    """``llamafactory-cli CMD CONFIG [key=value ...]`` up to LLaMA-Factory's argument parsing, without loading a model:
    the subcommand's own parser on the config, read by LLaMA-Factory's ``read_args`` (OmegaConf, the overrides of the
    command line merged) as its launcher hands it over (launcher.py pops CMD from ``sys.argv``): ``chat``, ``webchat``,
    ``api`` and ``export`` -> ``get_infer_args`` (ChatModel, export_model), ``eval`` -> ``get_eval_args``, ``train``
    -> ``get_train_args`` (run_exp). LLaMA-Factory's version pins on transformers, datasets, accelerate, peft and
    trl are not enforced (``DISABLE_VERSION_CHECK=1``): the oracle runs the machine's libraries."""
    os.environ.setdefault("DISABLE_VERSION_CHECK", "1")
    command = argv[0] if argv else "help"
    sys.argv = ["llamafactory-cli", *argv[1:]]
    from llamafactory.hparams import get_eval_args, get_infer_args, get_train_args, read_args

    parsers = {"chat": get_infer_args, "webchat": get_infer_args, "api": get_infer_args, "export": get_infer_args,
               "eval": get_eval_args, "train": get_train_args}
    if command not in parsers:
        raise SystemExit(f"llamafactory-cli {command}: not modelled by the oracle")
    parsed = parsers[command](read_args())
    print(f"ORACLE llamafactory {command} parsed: " + ", ".join(type(a).__name__ for a in parsed), flush=True)
    model_args = parsed[0]
    if command == "train" and model_args.quantization_bit is not None:
        # Model loading decides the quantization before any weight is read (model/loader.py load_model ->
        # patcher.py patch_config -> configure_quantization): that function on the model's config. The package
        # llamafactory.model is given its folder without running its __init__ (which imports the trainers' TRL).
        import types

        import llamafactory
        from transformers import AutoConfig

        pkg = types.ModuleType("llamafactory.model")
        pkg.__path__ = [os.path.join(os.path.dirname(llamafactory.__file__), "model")]
        sys.modules["llamafactory.model"] = pkg
        from llamafactory.model.model_utils.quantization import configure_quantization

        from transformers.integrations import is_deepspeed_zero3_enabled

        print(f"ORACLE zero3 {is_deepspeed_zero3_enabled()}", flush=True)
        config = AutoConfig.from_pretrained(model_args.model_name_or_path)
        init_kwargs: dict = {}
        configure_quantization(config, None, model_args, True, init_kwargs)
        quant = init_kwargs.get("quantization_config")
        print(f"ORACLE llamafactory quantization {type(quant).__name__} 4bit={getattr(quant, 'load_in_4bit', None)} "
              f"8bit={getattr(quant, 'load_in_8bit', None)}", flush=True)


def child_main(case_path: str, out_path: str):
    with open(case_path, encoding="utf-8") as f:
        case = json.load(f)
    started = time.time()
    result = {"id": case["id"]}
    with tempfile.TemporaryDirectory(prefix="lib-oracle-") as folder:
        write_files(case, folder)
        env = dict(os.environ)
        env.update({str(k): str(v) for k, v in (case["oracle"].get("env") or {}).items()})
        # Pure-Python sources carried to the machine (TRL, bitsandbytes' package folder), when given: for the
        # scripts, and for this process (the deepspeed launcher's code runs here, interpret_deepspeed).
        for site in reversed([p for p in os.environ.get("ORACLE_SITE", "").split(os.pathsep) if p]):
            sys.path.insert(0, site)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (os.environ.get("ORACLE_SITE"), env.get("PYTHONPATH")) if p)
        try:
            MODES[case["oracle"]["mode"]](case, folder, env, result)
        except BaseException as exc:  # noqa: BLE001 - a harness failure is recorded, not raised
            result["harness_error"] = _exc_record(exc)
    if result.get("harness_error"):
        lib = unavailable_lib([result["harness_error"]])
        outcome = "unavailable" if lib else "harness"
        if lib:
            result["unavailable"] = lib
    elif result.get("unavailable"):
        outcome = "unavailable"
    elif result.get("error"):
        outcome = "raised"
    elif result.get("anomalies"):
        outcome = "misbehaved"
    else:
        outcome = "clean"
    result["outcome"] = outcome
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
        rc, stderr = "timeout", exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
    if os.path.exists(out_path):
        with open(out_path, encoding="utf-8") as f:
            result = json.load(f)
    else:
        result = {"id": case["id"], "outcome": "harness",
                  "harness_error": {"type": "HarnessError", "message": f"child exited with {rc}", "where": None},
                  "stderr_tail": (stderr or "").splitlines()[-20:], "elapsed_s": round(time.time() - started, 2)}
    return {"id": case["id"], "input": case, **{k: v for k, v in result.items() if k != "id"}}


def library_versions() -> dict:
    from importlib import metadata

    out = base.library_versions()
    # Pure-Python sources carried to the machine (not installed there): name -> version of their dist-info.
    carried = {}
    for folder in filter(None, os.environ.get("ORACLE_SITE", "").split(os.pathsep)):
        for dist in metadata.distributions(path=[folder]):
            carried[dist.metadata["Name"]] = dist.version
    out["carried_sources"] = carried
    for dist in ("bitsandbytes", "trl", "datasets", "tyro", "torchtitan", "pydantic"):
        try:
            out[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            out[dist] = None
    return out


def _machine_paths(value):
    """The run's folder on the device machine out of every recorded string: sources carried there become
    package-relative (like site-packages paths), the harness's own lines `tools/oracle/run_lib_oracle.py
    (titan_main)` (titan_main's copies of torchtitan's one-line start-up assertions). The folder is
    `.../.devwork/reqN/` (runs 1-12) or the checkout `/work/main/` (run 13 on), the carried sources in its `site/`
    or `bnb/`."""
    if isinstance(value, str):
        value = re.sub(r"/\S*/\.devwork/req\d+/run_lib_oracle\.py(?::\d+)?",
                       "tools/oracle/run_lib_oracle.py (titan_main)", value)
        return re.sub(r"(?:/\S*/\.devwork/req\d+|(?<![\w./])/work/main)/(?:site/|bnb/)?", "", value)
    if isinstance(value, list):
        return [_machine_paths(v) for v in value]
    if isinstance(value, dict):
        return {k: (v if k == "input" else _machine_paths(v)) for k, v in value.items()}
    return value


def merge(paths: list[str], out: str, cases_path: str, extra_carried: dict | None = None):
    """Results of several runs in one file: a case recorded again replaces the earlier record. A ``raised`` record
    whose error is only the exit status (the first runs read no ``[rank0]:``-prefixed traceback) gets its error
    re-read from its recorded stderr tail with the current parser (``error_reread: true``)."""
    runs, by_id, versions = [], {}, None
    extra_carried = extra_carried or {}
    for p in paths:
        d = json.load(open(p, encoding="utf-8"))
        if versions is None:
            versions = d["versions"]
        elif any(d["versions"].get(k) != versions.get(k) for k in ("torch", "accelerate", "transformers", "peft",
                                                                    "lightning")):
            raise SystemExit(f"{p}: library versions differ from the first file's")
        carried_here = dict(d["versions"].get("carried_sources") or {})
        carried_here.update(extra_carried.get(os.path.basename(p), {}))
        versions.setdefault("carried_sources", {})
        versions["carried_sources"].update(carried_here)
        runs.append({"file": os.path.basename(p), "generated_at": d["generated_at"], "wall_s": d["wall_s"],
                     "cases": len(d["cases"]), "carried_sources": carried_here})
        for c in d["cases"]:
            by_id[c["id"]] = dict(c, run=len(runs))
    order = [c["id"] for c in json.load(open(cases_path, encoding="utf-8"))["cases"]]
    done = []
    for cid in order + sorted(set(by_id) - set(order)):
        if cid not in by_id:
            continue
        c = by_id[cid]
        err = c.get("error") or {}
        if c["outcome"] == "raised" and err.get("type") in ("ExitStatus", "ChildFailedError") and c.get("stderr_tail"):
            better = primary_error(parse_errors("\n".join(c["stderr_tail"])))
            if better and better["type"] not in ("ChildFailedError",):
                c["error"], c["error_reread"] = better, True
        done.append(_machine_paths(c))
    by = {}
    for r in done:
        by[r["outcome"]] = by.get(r["outcome"], 0) + 1
    doc = {"format": RESULT_FORMAT, "generated_by": "tools/oracle/run_lib_oracle.py --merge " +
           " ".join(os.path.basename(p) for p in paths), "complete": all(cid in by_id for cid in order),
           "versions": versions, "runs": runs, "summary": {"cases": len(done), "by_outcome": dict(sorted(by.items()))},
           "cases": done}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"merged {len(paths)} runs into {out}: {doc['summary']}")


def append(results_path: str, paths: list[str], cases_path: str):
    """New runs into an already merged results file (``merge``'s output): each run is appended to ``runs``, its
    cases replace the records of the same id (re-read and made machine-independent as in ``merge``), records of
    cases no longer in ``lib_cases.json`` are dropped, and the summary is recomputed."""
    doc = json.load(open(results_path, encoding="utf-8"))
    by_id = {c["id"]: c for c in doc["cases"]}
    for p in paths:
        d = json.load(open(p, encoding="utf-8"))
        if any(d["versions"].get(k) != doc["versions"].get(k) for k in ("torch", "accelerate", "transformers", "peft",
                                                                          "lightning")):
            raise SystemExit(f"{p}: library versions differ from {results_path}'s")
        carried = dict(d["versions"].get("carried_sources") or {})
        doc["versions"].setdefault("carried_sources", {}).update(carried)
        doc["runs"].append({"file": os.path.basename(p), "generated_at": d["generated_at"], "wall_s": d["wall_s"],
                            "cases": len(d["cases"]), "carried_sources": carried})
        for c in d["cases"]:
            c = dict(c, run=len(doc["runs"]))
            err = c.get("error") or {}
            if c["outcome"] == "raised" and err.get("type") in ("ExitStatus", "ChildFailedError") and c.get("stderr_tail"):
                better = primary_error(parse_errors("\n".join(c["stderr_tail"])))
                if better and better["type"] not in ("ChildFailedError",):
                    c["error"], c["error_reread"] = better, True
            by_id[c["id"]] = _machine_paths(c)
    order = [c["id"] for c in json.load(open(cases_path, encoding="utf-8"))["cases"]]
    doc["cases"] = [by_id[cid] for cid in order if cid in by_id]
    doc["complete"] = all(cid in by_id for cid in order)
    doc["generated_by"] += " + --append " + " ".join(os.path.basename(p) for p in paths)
    by = {}
    for r in doc["cases"]:
        by[r["outcome"]] = by.get(r["outcome"], 0) + 1
    doc["summary"] = {"cases": len(doc["cases"]), "by_outcome": dict(sorted(by.items()))}
    with open(results_path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"appended {len(paths)} runs to {results_path}: {doc['summary']}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="launchlint whole-launch oracle")
    parser.add_argument("--cases", default=str(Path(__file__).with_name("lib_cases.json")))
    parser.add_argument("--out", default=str(Path(__file__).with_name("lib_results.json")))
    parser.add_argument("--jobs", type=int, default=max(1, min(14, (os.cpu_count() or 2) - 2)))
    parser.add_argument("--gpu-jobs", type=int, default=6)
    parser.add_argument("--timeout", type=int, default=200)
    parser.add_argument("--only", default=None)
    parser.add_argument("--group", default=None, help="comma-separated groups")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--merge", nargs="+", help="merge these results files into --out (later files win)")
    parser.add_argument("--append", nargs="+", help="append these runs' results to the merged file --out")
    parser.add_argument("--carried", action="append", default=[],
                        help="FILE:NAME=VERSION, a source carried in a run that did not record carried_sources")
    if argv is None and sys.argv[1:2] == ["--titan"]:
        titan_main(int(sys.argv[2]), sys.argv[3:])
        return 0
    if argv is None and sys.argv[1:2] == ["--llamafactory"]:
        llamafactory_main(sys.argv[2:])
        return 0
    args = parser.parse_args(argv)
    if args.child:
        child_main(*args.child)
        return 0
    if args.append:
        append(args.out, args.append, args.cases)
        return 0
    if args.merge:
        extra = {}
        for item in args.carried:
            f, nv = item.split(":", 1)
            name, ver = nv.split("=", 1)
            extra.setdefault(f, {})[name] = ver
        merge(args.merge, args.out, args.cases, extra)
        return 0
    with open(args.cases, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c["id"] in wanted]
    if args.group:
        groups = set(args.group.split(","))
        cases = [c for c in cases if c["group"] in groups]
    started = time.time()
    versions = library_versions()
    print(f"lib-oracle: {len(cases)} cases, versions={versions}", file=sys.stderr, flush=True)
    results = {}
    gpu = threading.Semaphore(args.gpu_jobs)
    lock = threading.Lock()

    def write(complete):
        with lock:
            done = [results[c["id"]] for c in cases if c["id"] in results]
        by = {}
        for r in done:
            by[r["outcome"]] = by.get(r["outcome"], 0) + 1
        doc = {"format": RESULT_FORMAT,
               "generated_by": "tools/oracle/run_lib_oracle.py --cases " + os.path.basename(args.cases),
               "generated_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "complete": complete and len(done) == len(cases), "versions": versions,
               "wall_s": round(time.time() - started, 1),
               "summary": {"cases": len(done), "by_outcome": dict(sorted(by.items()))}, "cases": done}
        with open(args.out + ".tmp", "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        os.replace(args.out + ".tmp", args.out)
        return doc

    with tempfile.TemporaryDirectory(prefix="lib-oracle-run-") as workdir:
        hf_home = os.path.join(workdir, "hf_home")
        os.makedirs(hf_home)
        env = base.clean_environment(hf_home)
        env["ORACLE_SITE"] = os.environ.get("ORACLE_SITE", "")

        def task(case):
            if case["oracle"].get("gpu"):
                with gpu:
                    return run_one(case, workdir, env, args.timeout)
            return run_one(case, workdir, env, args.timeout)

        ordered = sorted(cases, key=lambda c: (not c["oracle"].get("gpu"), c["id"]))
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futs = [pool.submit(task, c) for c in ordered]
            for n, fut in enumerate(concurrent.futures.as_completed(futs), 1):
                r = fut.result()
                with lock:
                    results[r["id"]] = r
                if n % 5 == 0:
                    write(False)
                    print(f"lib-oracle: {n}/{len(cases)} ({time.time() - started:.0f}s)", file=sys.stderr, flush=True)
    doc = write(True)
    print(f"lib-oracle: wrote {args.out}: {doc['summary']}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
