#!/usr/bin/env python3
"""Where one configuration's reserved memory comes from: every segment PyTorch's caching allocator creates, with its
size, CUDA stream, the memory allocated and reserved at that moment, the phase (wrapping, step N) and the Python
frames that asked for it (torch.cuda.memory's recorded history), then the segments per stream at the end.

Runs one configuration of tools/memory/measure.py, the same way measure.py does, on one CUDA GPU:

    python3 tools/memory/reserved_segments.py l3b_full_fs_ws32_ac1 [--untied] [--min-mib 90] [--events MIB]
        [--placement] [--peak]

`--events` lists every allocation and free of at least MIB in order, `--placement` where the optimizer state went (the
size of the segment each state tensor landed in), `--peak` the blocks alive at the last step's allocated peak.

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


def peak_blocks(trace: list, start: int, min_mib: float) -> None:
    """The blocks alive at the largest allocated total reached from trace entry `start` on (the last step), grouped
    by size and allocating frames; blocks below `min_mib` / 8 are summed per allocating frame."""
    live, allocated, best, best_i = {}, 0, -1, 0
    for i, e in enumerate(trace):
        if e["action"] == "alloc":
            live[e["addr"]] = i
            allocated += e["size"]
        elif e["action"] == "free_completed":
            live.pop(e["addr"], None)
            allocated -= e["size"]
        if i >= start and allocated > best:
            best, best_i = allocated, i
    alive = {}
    allocated = 0
    for i, e in enumerate(trace[: best_i + 1]):
        if e["action"] == "alloc":
            alive[e["addr"]] = e
        elif e["action"] == "free_completed":
            alive.pop(e["addr"], None)
    groups = {}
    for e in alive.values():
        small = e["size"] < min_mib / 8 * MiB
        key = ("small" if small else round(e["size"] / MiB, 2), e.get("stream", 0), frames(e, 4) or "(autograd)")
        g = groups.setdefault(key, [0, 0])
        g[0] += 1
        g[1] += e["size"]
    total = sum(g[1] for g in groups.values())
    print(f"blocks alive at the last step's allocated peak: {total / GiB:.3f} GiB in {len(alive)} blocks "
          f"(trace entry {best_i} of {len(trace)})")
    for (size, stream, fr), (n, b) in sorted(groups.items(), key=lambda kv: -kv[1][1]):
        print(f"  {b / MiB:9.1f} MiB = {n:4d} x {size} MiB, stream {stream} | {fr}")


def placement(trace: list) -> None:
    """Where the optimizer state went: the allocations of AdamW's `_init_group` (the state, created by the first
    optimizer step) summed by the size of their segment, and whether that segment existed before (a block of the
    first step) or was created for the state."""
    import bisect

    starts, segs = [], {}
    out = {}
    for e in trace:
        if e["action"] == "segment_alloc":
            bisect.insort(starts, e["addr"])
            segs[e["addr"]] = (e["size"], "for it" if "_init_group" in frames(e, 8) else "earlier")
        elif e["action"] == "segment_free":
            starts.remove(e["addr"])
            segs.pop(e["addr"], None)
        elif e["action"] == "alloc" and "_init_group" in frames(e, 8) and e["size"] > MiB:
            i = bisect.bisect_right(starts, e["addr"]) - 1
            size, made = segs[starts[i]] if i >= 0 else (0, "?")
            k = (round(size / MiB), made)
            g = out.setdefault(k, [0, 0])
            g[0] += 1
            g[1] += e["size"]
    print("optimizer state (allocations over 1 MiB) by the segment it landed in:")
    for (size, made), (n, b) in sorted(out.items(), key=lambda kv: -kv[1][1]):
        print(f"  {b / MiB:9.1f} MiB in {n:4d} allocations, segments of {size} MiB ({made})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("--untied", action="store_true")
    ap.add_argument("--min-mib", type=float, default=90, help="list segments of at least this size")
    ap.add_argument("--events", type=float, default=0,
                    help="also print every allocation and free of at least this many MiB, in order")
    ap.add_argument("--placement", action="store_true",
                    help="also sum the optimizer state's allocations (AdamW `_init_group`) by the size of the segment "
                         "each landed in")
    ap.add_argument("--peak", action="store_true",
                    help="also list the blocks alive at the last step's allocated peak, by size and the frames that "
                         "allocated them")
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
    if a.peak:
        peak_blocks(snap["device_traces"][0], max(marks), a.min_mib)
    if a.placement:
        placement(snap["device_traces"][0])
    allocated = reserved = 0
    phase = "wrapping"
    for i, e in enumerate(snap["device_traces"][0]):
        if i in marks:
            phase = marks[i]
            print(f"-- {phase}: allocated {allocated / GiB:.3f} GiB, reserved {reserved / GiB:.3f} GiB")
        act = e["action"]
        if a.events and act in ("alloc", "free_completed") and e["size"] >= a.events * MiB:
            print(f"  {'+' if act == 'alloc' else '-'}{e['size'] / MiB:8.1f} MiB, stream {e.get('stream', 0)}, "
                  f"[{phase}] allocated {allocated / GiB:.3f} reserved {reserved / GiB:.3f} | {frames(e, 3) or '(autograd)'}")
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
