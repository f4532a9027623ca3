#!/usr/bin/env python3
"""Where one configuration's reserved memory comes from: every segment PyTorch's caching allocator creates, with its
size, CUDA stream, the memory allocated and reserved at that moment, the phase (wrapping, step N) and the Python
frames that asked for it (torch.cuda.memory's recorded history), then the segments per stream at the end.

Runs one configuration of tools/memory/measure.py, the same way measure.py does, on one CUDA GPU:

    python3 tools/memory/reserved_segments.py l3b_full_fs_ws32_ac1 [--untied] [--min-mib 90]

`--untied` unties the model's head (a tied model's configuration measured with a separate head). docs/memory.md
("Resolved: FSDP1 full fine-tunes ...") quotes what it printed on the measurement machine.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch  # noqa: E402

import measure  # noqa: E402

MiB, GiB = 2**20, 2**30


def trace_len() -> int:
    return len(torch.cuda.memory._snapshot()["device_traces"][0])


def frames(event: dict, depth: int = 6) -> str:
    out = []
    for f in event.get("frames", []):
        name = f["filename"]
        if "torch/cuda/memory.py" in name:
            continue
        out.append(f"{name.split('site-packages/')[-1]}:{f['line']}:{f['name']}")
        if len(out) >= depth:
            break
    return " < ".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("--untied", action="store_true")
    ap.add_argument("--min-mib", type=float, default=90, help="list segments of at least this size")
    a = ap.parse_args()
    cfg = next((dict(c) for c in measure.configs() if c["name"] == a.name), None)
    if cfg is None:
        sys.exit(f"no configuration {a.name} in tools/memory/measure.py")
    if a.untied:
        measure.MODELS[cfg["model"]] = dict(measure.MODELS[cfg["model"]], tie_word_embeddings=False)

    marks = {}
    wrap, step, segments = measure.wrap, measure.step, measure.segments_by_stream
    steps = [0]

    def marked_wrap(c):
        r = wrap(c)
        marks[trace_len()] = "after wrapping"
        return r

    def marked_step(*args):
        steps[0] += 1
        marks[trace_len()] = f"step {steps[0]}"
        return step(*args)

    snap = {}

    def segments_and_snapshot():
        snap.update(torch.cuda.memory._snapshot())
        return segments()

    measure.wrap, measure.step, measure.segments_by_stream = marked_wrap, marked_step, segments_and_snapshot
    torch.cuda.memory._record_memory_history(max_entries=1_000_000, context="all", stacks="python")
    rec = measure.run_one(cfg)
    print(f"{a.name}{' (untied)' if a.untied else ''}: peak allocated {rec['peak_bytes'] / GiB:.3f} GiB, "
          f"peak reserved {rec['reserved_bytes'] / GiB:.3f} GiB, reserved after wrapping "
          f"{rec['init_reserved_bytes'] / GiB:.3f} GiB, after each step "
          f"{[round(x / GiB, 3) for x in rec['reserved_after_step']]}")
    allocated = reserved = 0
    phase = "wrapping"
    for i, e in enumerate(snap["device_traces"][0]):
        if i in marks:
            phase = marks[i]
            print(f"-- {phase}: allocated {allocated / GiB:.3f} GiB, reserved {reserved / GiB:.3f} GiB")
        act = e["action"]
        if act == "alloc":
            allocated += e["size"]
        elif act == "free_completed":
            allocated -= e["size"]
        elif act == "segment_free":
            reserved -= e["size"]
        elif act == "segment_alloc":
            reserved += e["size"]
            if e["size"] >= a.min_mib * MiB:
                print(f"new segment {e['size'] / MiB:8.1f} MiB, stream {e.get('stream', 0)}, [{phase}] allocated "
                      f"{allocated / GiB:.3f} reserved {reserved / GiB:.3f} | {frames(e) or '(no Python frame: autograd)'}")
    print("segments per stream at the end:")
    for stream, s in rec["segments"].items():
        print(f"  stream {stream}: {s['count']} segments, {s['bytes'] / GiB:.3f} GiB, largest (MiB) "
              f"{json.dumps([round(x / MiB) for x in s['largest']])}")


if __name__ == "__main__":
    main()
