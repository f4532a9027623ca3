#!/usr/bin/env python3
"""Check the oracle's results against the behaviour recorded for the named probes, and summarise them.

Every case with ``recorded: {ref, expect}`` (the probes p1-*, p2-*, p3-*, recorded before the oracle ran) is
checked: ``expect`` maps a dotted path in the case's result to the recorded value. Paths:
``stage``, ``error.type``, ``effective.fsdp.<field>``, ``plugin.<field>``, ``launch_env.<VAR>``
(absent variable = null), ``launcher.args.<arg>``, ``launcher.path``. A path ending in ``~`` is a
substring test; ``warnings~`` searches every captured warning message.

Standard library only. Usage:
    python3 tools/oracle/compare_probes.py [--results tools/oracle/results.json] [--markdown]
Exit status 0 always (mismatches are findings, not failures); use --strict for 1 on a mismatch.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

def lookup(result: dict, path: str):
    """Value at a dotted path; None when any part is missing."""
    node = result
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def check(result: dict, expect: dict) -> list[str]:
    """Returns human-readable mismatches ("path: expected X, got Y")."""
    problems = []
    for path, want in expect.items():
        if path.endswith("~"):
            base = path[:-1]
            if base == "warnings":
                messages = [w.get("message", "") for w in result.get("warnings") or []]
                if not any(want in m for m in messages):
                    problems.append(f"warnings: no warning containing {want!r}")
            else:
                got = lookup(result, base)
                if got is None or want not in str(got):
                    problems.append(f"{base}: expected to contain {want!r}, got {got!r}")
        else:
            got = lookup(result, path)
            if got != want:
                problems.append(f"{path}: expected {want!r}, got {got!r}")
    return problems


def outcome(result: dict) -> str:
    """One-line description of what happened."""
    if result.get("stage"):
        err = result.get("error") or {}
        message = re.sub(r"/tmp/oracle-[^/ ]+/", "", err.get("message", ""))  # the per-case temp dir
        return f"{result['stage']}: {err.get('type')}: {message[:120]}".replace("|", "\\|")
    eff = result.get("effective") or {}
    fsdp = eff.get("fsdp") or {}
    if not fsdp.get("enabled"):
        return f"ok, FSDP off ({eff.get('distributed_type')})"
    if fsdp.get("version") == 1:
        return f"ok, FSDP1 {fsdp.get('sharding_strategy')}"
    return f"ok, FSDP2 reshard_after_forward={fsdp.get('reshard_after_forward')}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default=str(Path(__file__).with_name("results.json")))
    parser.add_argument("--cases", default=str(Path(__file__).with_name("cases.json")),
                        help="case file the results must match (stale results are reported)")
    parser.add_argument("--markdown", action="store_true", help="print markdown tables")
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args(argv)
    doc = json.loads(Path(args.results).read_text(encoding="utf-8"))
    results = doc["cases"]

    stale = []
    if Path(args.cases).exists():
        cases = {c["id"]: c for c in json.loads(Path(args.cases).read_text(encoding="utf-8"))["cases"]}
        seen = {r["id"] for r in results}
        stale = [r["id"] for r in results if cases.get(r["id"]) != r["input"]] + [i for i in cases if i not in seen]
        if stale:
            print(f"warning: {len(stale)} results do not match {args.cases} (re-run them): {stale[:20]}",
                  file=sys.stderr)

    by_stage = Counter(str(r["stage"]) for r in results)
    by_error = Counter((r["stage"], (r.get("error") or {}).get("type")) for r in results if r["stage"])
    groups = defaultdict(Counter)
    for r in results:
        groups[r["input"]["group"]][str(r["stage"])] += 1

    checked = [r for r in results if r["input"].get("recorded")]
    mismatches = {}
    for r in checked:
        problems = check(r, r["input"]["recorded"]["expect"])
        if problems:
            mismatches[r["id"]] = problems

    if args.markdown:
        print(f"Versions: {json.dumps(doc.get('versions'))}\n")
        print(f"{len(results)} cases; by stage: " + ", ".join(f"{k}={v}" for k, v in sorted(by_stage.items())) + "\n")
        print("| stage | exception | cases |\n|---|---|---|")
        for (stage, etype), n in sorted(by_error.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            print(f"| {stage} | {etype} | {n} |")
        print("\n| group | outcome by stage |\n|---|---|")
        for g in sorted(groups):
            print(f"| {g} | " + ", ".join(f"{k}={v}" for k, v in sorted(groups[g].items())) + " |")
        print(f"\n| case | probe | matched | oracle observed |\n|---|---|---|---|")
        for r in checked:
            ok = "yes" if r["id"] not in mismatches else "**no**: " + "; ".join(mismatches[r["id"]])
            print(f"| {r['id']} | {r['input']['recorded']['ref']} | {ok} | {outcome(r)} |")
    else:
        print(f"{len(results)} cases; by stage {dict(sorted(by_stage.items()))}")
        for (stage, etype), n in sorted(by_error.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
            print(f"  {stage:14s} {str(etype):22s} {n}")
        print(f"probe cases: {len(checked)} checked, {len(mismatches)} mismatched")
        for cid, problems in mismatches.items():
            print(f"  {cid}:")
            for p in problems:
                print(f"    - {p}")
    return 1 if (args.strict and (mismatches or stale)) else 0


if __name__ == "__main__":
    sys.exit(main())
