#!/usr/bin/env python3
"""Appends measure.py result files to docs/memory/measurements.jsonl, keeping their provenance.

Usage: import_results.py RESULTS.jsonl... [--run TAG]

Each record keeps its `versions` and gets a `run` tag (the record's own, else --run) and `source` (the result
file's name). Records with an `error` are skipped (printed). A configuration already present under the same name is
replaced.

Reserved memory. measure.py calls `empty_cache()` before each configuration and records the allocator's state then
(`base_allocated_bytes`, `base_reserved_bytes`); `reserved_bytes` is the raw `max_memory_reserved()`. Tensors left
alive by an earlier configuration keep their segments, and the free space inside those segments can serve the next
configuration, so its own reserved peak lies between raw - base_reserved and raw - base_allocated. Stored:
`reserved_bytes` = raw - base_reserved (as runs 1-3 recorded it), `reserved_bytes_max` = raw - base_allocated,
`reserved_raw_bytes` = raw, and `reserved_reliable` when the interval is within 5% of the value.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "docs", "memory", "measurements.jsonl")


def convert(r: dict, source: str, run: str) -> dict:
    r = dict(r)
    r["run"] = r.get("run") or run
    r["source"] = source
    if "base_reserved_bytes" in r and "reserved_raw_bytes" not in r:
        raw = r["reserved_bytes"]
        base_res, base_alloc = r["base_reserved_bytes"], r.get("base_allocated_bytes", 0)
        own = raw - base_res
        r["reserved_raw_bytes"] = raw
        r["reserved_bytes"] = own
        r["reserved_bytes_max"] = raw - base_alloc
        r["reserved_reliable"] = (base_res - base_alloc) <= 0.05 * own
        r["reserved_GiB"] = round(own / 1024**3, 3)
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="+")
    ap.add_argument("--run", default="")
    a = ap.parse_args()
    old = [json.loads(line) for line in open(DATA)]
    new = []
    for path in a.files:
        for line in open(path):
            if not line.strip():
                continue
            r = json.loads(line)
            if "error" in r:
                print("skipped (error):", r["name"], r["error"][:120], file=sys.stderr)
                continue
            new.append(convert(r, os.path.basename(path), a.run))
    names = {r["name"] for r in new}
    kept = [r for r in old if r["name"] not in names]
    with open(DATA, "w") as f:
        for r in kept + new:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    print(f"{len(kept)} kept, {len(new)} added: {len(kept) + len(new)} configurations")


if __name__ == "__main__":
    main()
