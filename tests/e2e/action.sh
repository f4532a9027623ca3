#!/usr/bin/env bash
# The composite GitHub Action: action.yml's shell steps are tools/action.sh phases with the inputs they read, and
# the script, run as the runner runs it (GITHUB_PATH, GITHUB_OUTPUT, RUNNER_TEMP), installs launchlint from a
# release tarball and from a wheel, writes SARIF or annotations, and fails the job exactly on findings/misuse.
set -uo pipefail
bin=$(realpath "$1")
repo=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }

# 1. action.yml: its steps and inputs
python3 - "$repo/action.yml" <<'PY' || fail=1
import re, sys, yaml
a = yaml.safe_load(open(sys.argv[1]))
steps = a["runs"]["steps"]
assert a["runs"]["using"] == "composite", "not a composite action"
phases = [re.search(r'tools/action\.sh" (\w+)', s["run"]).group(1) for s in steps if "run" in s]
assert phases == ["install", "run", "finish"], phases
script = open("tools/action.sh").read()
for s in steps:
    if "run" in s:
        assert s.get("shell") == "bash", s["name"]
    for var, value in (s.get("env") or {}).items():
        m = re.fullmatch(r"\$\{\{ inputs\.([\w-]+) \}\}", value)
        if m:
            assert m.group(1) in a["inputs"], f"{s['name']}: unknown input {m.group(1)}"
        assert var in script, f"{var} is passed but tools/action.sh does not read it"
uploads = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
assert len(uploads) == 1 and "steps.run.outputs.sarif-file" in uploads[0]["with"]["sarif_file"], uploads
print("ok   action.yml: composite steps install/run/upload-sarif/finish, every input read by tools/action.sh")
PY

runner() {  # a fresh runner environment for one job
  export RUNNER_TEMP="$tmp/runner-$1" GITHUB_PATH="$tmp/runner-$1/path" GITHUB_OUTPUT="$tmp/runner-$1/output"
  mkdir -p "$RUNNER_TEMP" && : > "$GITHUB_PATH" && : > "$GITHUB_OUTPUT"
}
job_path() { echo "$(tac "$GITHUB_PATH" | paste -sd:):$PATH"; }
output() { sed -n "s/^$1=//p" "$GITHUB_OUTPUT" | tail -1; }

# 2. release tarball (a tarball laid out as tools/release lays it out, holding this build's binary)
version=$("$bin" --version | awk '{print $2}')
mkdir -p "$tmp/pkg/launchlint-$version-linux-x86_64"
cp "$bin" "$tmp/pkg/launchlint-$version-linux-x86_64/launchlint"
tar -C "$tmp/pkg" -czf "$tmp/launchlint-$version-linux-x86_64.tar.gz" "launchlint-$version-linux-x86_64"
runner tar
INPUT_RELEASE_URL="file://$tmp/launchlint-$version-linux-x86_64.tar.gz" bash tools/action.sh install >/dev/null; rc=$?
check "install from the release tarball" '[ $rc -eq 0 ] && [ -x "$(head -1 "$GITHUB_PATH")/launchlint" ]'
out=$(cd "$repo" && PATH=$(job_path) INPUT_ARGS="examples/7b-lora-shard-grad-op" INPUT_OUTPUT=sarif \
  INPUT_SARIF_FILE="$tmp/out.sarif" bash tools/action.sh run 2>&1); rc=$?
check "run: SARIF written, findings in the log, exit-code=1" \
  '[ $rc -eq 0 ] && [ "$(output exit-code)" = 1 ] && [ "$(output sarif-file)" = "$tmp/out.sarif" ] && jq -e ".runs[0].results[0].ruleId == \"FSDP001\"" "$tmp/out.sarif" >/dev/null && grep -q "FSDP001" <<<"$out"'
check "run: the report in the log is not read for workflow commands (stop-commands around it)" \
  'tok=$(sed -n "s/^::stop-commands:://p" <<<"$out") && [ -n "$tok" ] && awk -v t="::$tok::" "/^::stop-commands::/{on=1} \$0==t{on=0} /FSDP001/{if(!on) bad=1} END{exit bad}" <<<"$out" && grep -qx "::$tok::" <<<"$out"'
LAUNCHLINT_EXIT_CODE=1 INPUT_FAIL=true bash tools/action.sh finish >/dev/null; rc=$?
check "finish fails the job on findings" '[ $rc -eq 1 ]'
LAUNCHLINT_EXIT_CODE=1 INPUT_FAIL=false bash tools/action.sh finish >/dev/null; rc=$?
check "finish passes with fail: false" '[ $rc -eq 0 ]'
LAUNCHLINT_EXIT_CODE=0 bash tools/action.sh finish >/dev/null; rc=$?
check "finish passes when clean" '[ $rc -eq 0 ]'
: > "$GITHUB_OUTPUT"
out=$(cd "$repo" && PATH=$(job_path) INPUT_ARGS="--select NOPE ." INPUT_OUTPUT=sarif INPUT_SARIF_FILE="$tmp/x.sarif" \
  bash tools/action.sh run 2>&1)
check "a misuse is exit-code=2, no SARIF to upload" '[ "$(output exit-code)" = 2 ] && [ -z "$(output sarif-file)" ]'
LAUNCHLINT_EXIT_CODE=2 INPUT_FAIL=false bash tools/action.sh finish >/dev/null; rc=$?
check "finish fails on a misuse even with fail: false" '[ $rc -eq 1 ]'
out=$(cd "$repo" && PATH=$(job_path) INPUT_ARGS="examples/7b-lora-shard-grad-op" INPUT_OUTPUT=annotations \
  bash tools/action.sh run 2>&1)
check "annotations: workflow commands in the log" 'grep -q "^::warning file=examples/7b-lora-shard-grad-op/fsdp.yaml,line=10" <<<"$out"'

# 3. wheel (written around this build's binary by the release's own wheel writer)
wheel=$(python3 tools/pep517/launchlint_build.py wheel --binary "$bin" --out "$tmp/wheels" --tag linux_x86_64)
runner wheel
INPUT_WHEEL="$wheel" bash tools/action.sh install >/dev/null; rc=$?
check "install from the wheel into a venv" '[ $rc -eq 0 ] && [ "$(PATH=$(job_path) launchlint --version)" = "launchlint $version" ]'
exit $fail
