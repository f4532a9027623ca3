#!/usr/bin/env python3
"""Compare launchlint with the whole-launch oracle's results (tools/oracle/lib_results.json).

Stdlib only. Every recorded case ships the files of a launch (``input.files``); they are written to a temporary
folder exactly as the oracle ran them and ``launchlint --isolated --format json .`` runs there. Per case, by the
oracle's ``outcome``:

- ``raised`` (a launcher step or the script failed): launchlint must report an ``error``-level finding of one of
  the case's rules (else **missed-error**, or **other-rule** when only another rule's error is reported);
- ``misbehaved`` (it ran, not as written: a shell line run as a command, fewer processes than configured, GPU ids
  not matching): launchlint must report one of the case's rules, at any severity (else **missed-finding**);
- ``clean``: no ``error``-level finding at all (else **false-error**), and none of the case's rules at any
  severity (else **false-finding**: the near-miss must stay silent);
- ``unavailable`` / ``harness``: not compared (counted).

``tools/oracle/lib_expected_disagreements.json`` lists the known disagreements ``[{id, kind, reason}]``; an unlisted
one, or a listed one that no longer occurs, fails the run.

    python3 tools/oracle/check_lib_launchlint.py --launchlint build/launchlint
    python3 tools/oracle/check_lib_launchlint.py --launchlint build/launchlint --cases-only   # no results needed:
                                                   # prints launchlint's findings per case next to its `expect`
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def lint(launchlint: str, case: dict) -> list[dict]:
    with tempfile.TemporaryDirectory(prefix="lib-agree-") as tmp:
        for rel, text in case["files"].items():
            path = Path(tmp) / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        proc = subprocess.run([launchlint, "--isolated", "--format", "json", "."], cwd=tmp, capture_output=True,
                              text=True, timeout=120)
        if proc.returncode not in (0, 1):
            raise RuntimeError(f"{case['id']}: launchlint exited {proc.returncode}: {proc.stderr.strip()[:300]}")
        doc = json.loads(proc.stdout or "[]")
        if isinstance(doc, dict):
            doc = doc.get("diagnostics") or doc.get("findings") or []
        return doc


def verdict(outcome: str, rules: list[str], findings: list[dict]) -> str | None:
    """None when launchlint agrees with the oracle, else the kind of disagreement."""
    errors = [f for f in findings if f.get("severity") == "error"]
    mine = [f for f in findings if f.get("code") in rules]
    if outcome == "raised":
        if any(f.get("code") in rules for f in errors):
            return None
        return "other-rule" if errors else "missed-error"
    if outcome == "misbehaved":
        return None if mine else "missed-finding"
    if outcome == "clean":
        if errors:
            return "false-error"
        return "false-finding" if mine else None
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--launchlint", required=True)
    ap.add_argument("--results", default=str(HERE / "lib_results.json"))
    ap.add_argument("--cases", default=str(HERE / "lib_cases.json"))
    ap.add_argument("--expected", default=str(HERE / "lib_expected_disagreements.json"))
    ap.add_argument("--cases-only", action="store_true", help="no results: show findings next to each case's expect")
    ap.add_argument("--list-unlisted", action="store_true")
    ap.add_argument("--report", default=None, help="write every case's comparison (JSON) here")
    ap.add_argument("--jobs", type=int, default=8)
    args = ap.parse_args(argv)
    launchlint = str(Path(args.launchlint).resolve())

    if args.cases_only:
        cases = json.loads(Path(args.cases).read_text())["cases"]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            all_findings = list(pool.map(lambda c: lint(launchlint, c), cases))
        for case, findings in zip(cases, all_findings):
            shown = ", ".join(f"{f['code']}:{f['severity'][0]}" for f in findings) or "-"
            want = {"raises": "raised", "misbehaves": "misbehaved", "runs": "clean"}[case["expect"]]
            v = verdict(want, case["rules"], findings)
            print(f"{'ok ' if v is None else 'XX '}{case['id']:38s} {case['expect']:10s} {'/'.join(case['rules']):14s} {shown}"
                  + (f"   <- {v}" if v else ""))
        return 0

    doc = json.loads(Path(args.results).read_text())
    results = doc["cases"]
    # What ran (files, oracle instructions) must be what lib_cases.json holds: a case whose files changed after it
    # was run is stale until it runs again. Its rules and notes are read from lib_cases.json.
    current = {c["id"]: c for c in json.loads(Path(args.cases).read_text())["cases"]}
    stale_inputs = [r["id"] for r in results
                    if r["id"] not in current or any(current[r["id"]][k] != r["input"][k] for k in ("files", "oracle"))]
    for r in results:
        if r["id"] in current:
            r["input"] = current[r["id"]]
    for cid in stale_inputs:
        print(f"FAIL recorded input differs from lib_cases.json (run the case again): {cid}")
    expected = {(e["id"], e["kind"]): e for e in json.loads(Path(args.expected).read_text())}
    compared = [r for r in results if r["outcome"] in ("raised", "misbehaved", "clean")]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        all_findings = list(pool.map(lambda r: lint(launchlint, r["input"]), compared))
    found, report, by_outcome = {}, [], {}
    for r in results:
        by_outcome[r["outcome"]] = by_outcome.get(r["outcome"], 0) + 1
    for r, findings in zip(compared, all_findings):
        v = verdict(r["outcome"], r["input"]["rules"], findings)
        if v:
            found[(r["id"], v)] = r
        report.append({"id": r["id"], "outcome": r["outcome"], "rules": r["input"]["rules"], "disagreement": v,
                       "findings": [f"{f['code']}:{f['severity']}" for f in findings]})
    agree = len(compared) - len(found)
    unlisted = sorted(set(found) - set(expected))
    stale = sorted(set(expected) - set(found))
    print(f"lib-oracle agreement: {agree}/{len(compared)} cases agree ({by_outcome}); "
          f"{len(found)} known disagreements, {len(unlisted)} unlisted, {len(stale)} stale")
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1) + "\n")
    if args.list_unlisted:
        print(json.dumps([{"id": i, "kind": k, "reason": ""} for i, k in unlisted], indent=1))
    for i, k in unlisted:
        print(f"FAIL unlisted {k}: {i}")
    for i, k in stale:
        print(f"FAIL stale {k}: {i}")
    return 1 if unlisted or stale or stale_inputs else 0


if __name__ == "__main__":
    sys.exit(main())
