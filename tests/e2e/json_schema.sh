#!/usr/bin/env bash
# The JSON outputs match their schemas in docs/schema/ (validated with python3-jsonschema, Draft 2020-12):
# `--format json` (launchlint-output.schema.json) and `--format gitlab` (gitlab-code-quality.schema.json,
# GitLab's Code Quality report fields), on every fixture; GitLab fingerprints are unique.
set -uo pipefail
bin=$(realpath "$1")
python3 -c 'import jsonschema' 2>/dev/null || { echo "FAIL: python3-jsonschema is not installed (tools/setup)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" --isolated --show-suppressed --format json -o "$tmp/out.json" --format gitlab -o "$tmp/gl.json" fixtures examples
rc=$?
[ $rc -eq 1 ] || { echo "FAIL: expected findings (exit 1), got $rc"; exit 1; }
LAUNCHLINT_DOCS_URL=https://docs.launchlint.test/rules/ "$bin" --isolated --format json -o "$tmp/linked.json" fixtures
python3 - "$tmp" <<'PY'
import json, sys
from jsonschema import Draft202012Validator
tmp = sys.argv[1]
fail = 0
for out, schema in (("out.json", "launchlint-output.schema.json"), ("linked.json", "launchlint-output.schema.json"),
                    ("gl.json", "gitlab-code-quality.schema.json")):
    with open(f"docs/schema/{schema}") as f:
        s = json.load(f)
    Draft202012Validator.check_schema(s)
    with open(f"{tmp}/{out}") as f:
        doc = json.load(f)
    errors = list(Draft202012Validator(s).iter_errors(doc))
    n = len(doc["diagnostics"] if isinstance(doc, dict) else doc)
    for e in errors[:5]:
        print(f"FAIL {out}: {'/'.join(map(str, e.absolute_path))}: {e.message}")
    fail |= bool(errors) or n == 0
    print(("FAIL" if errors or n == 0 else "ok  ") + f" {out}: {n} findings against {schema}")
gl = json.load(open(f"{tmp}/gl.json"))
fps = [i["fingerprint"] for i in gl]
if len(fps) != len(set(fps)):
    print("FAIL gitlab fingerprints are not unique"); fail = 1
linked = json.load(open(f"{tmp}/linked.json"))
if not all(d["url"] and d["url"].startswith("https://docs.launchlint.test/rules/") for d in linked["diagnostics"]):
    print("FAIL with LAUNCHLINT_DOCS_URL every finding has its rule page url"); fail = 1
plain = json.load(open(f"{tmp}/out.json"))
if any(d["url"] is not None for d in plain["diagnostics"]):
    print("FAIL without a docs URL no finding may carry a url"); fail = 1
sys.exit(fail)
PY
