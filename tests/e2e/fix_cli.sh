#!/usr/bin/env bash
# The fix flags of the real binary: --diff prints a unified diff and changes nothing; --fix writes safe fixes only,
# keeps comments, and reports what is left; --unsafe-fixes adds the unsafe ones; --show-fixes lists them.
set -euo pipefail
bin="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "fix_cli: $*" >&2; exit 1; }

cat >"$tmp/accelerate.yaml" <<'YAML'
# training config (comment kept)
compute_environment: LOCAL_MACHINE
distributed_type: FSDP
mixed_precison: bf16   # typo
num_processes: 8
fsdp_config:
  fsdp_sharding_strategy: ZERO3
  fsdp_min_num_params: 1e8
YAML
cp "$tmp/accelerate.yaml" "$tmp/orig.yaml"

status=0
"$bin" --isolated --diff "$tmp/accelerate.yaml" >"$tmp/diff.out" 2>"$tmp/diff.err" || status=$?
[[ $status -eq 1 ]] || fail "--diff exit $status, expected 1"
cmp -s "$tmp/accelerate.yaml" "$tmp/orig.yaml" || fail "--diff changed the file"
grep -qx -- "-mixed_precison: bf16   # typo" "$tmp/diff.out" || fail "diff lacks the removed line"
grep -qx -- "+mixed_precision: bf16   # typo" "$tmp/diff.out" || fail "diff lacks the added line"
grep -qx -- "+  fsdp_min_num_params: 100000000" "$tmp/diff.out" || fail "diff lacks the number fix"
if grep -q "FULL_SHARD" "$tmp/diff.out"; then fail "--diff applied an unsafe fix"; fi
# The diff applies with patch to the same result --fix gives.
cp "$tmp/orig.yaml" "$tmp/patched.yaml"
(cd "$tmp" && sed -e 's#^--- a/.*#--- a/patched.yaml#' -e 's#^+++ b/.*#+++ b/patched.yaml#' diff.out | patch -s -p1) ||
  fail "the diff does not apply with patch"

status=0
"$bin" --isolated --fix --show-fixes --format concise "$tmp/accelerate.yaml" >"$tmp/fix.out" 2>&1 || status=$?
[[ $status -eq 1 ]] || fail "--fix exit $status, expected 1 (ACC003/FSDP004 left)"
cmp -s "$tmp/accelerate.yaml" "$tmp/patched.yaml" || fail "--fix and the patched --diff differ"
head -1 "$tmp/accelerate.yaml" | grep -qx "# training config (comment kept)" || fail "comment lost"
grep -q "FSDP004" "$tmp/fix.out" || fail "the unfixed finding is not reported"
if grep -Eq ":[0-9]+:[0-9]+: ACC001 \[" "$tmp/fix.out"; then fail "a fixed finding is still reported"; fi
grep -q "Fixed 2 problem(s)" "$tmp/fix.out" || fail "--show-fixes does not list the applied fixes"
grep -q "Replace \`ZERO3\` with \`FULL_SHARD\` \[unsafe\]" "$tmp/fix.out" || fail "--show-fixes does not list the unsafe fix"

"$bin" --isolated --fix --unsafe-fixes --select FSDP004,ACC001,YML001 "$tmp/accelerate.yaml" >/dev/null 2>&1 || fail "--unsafe-fixes left findings"
grep -qx "  fsdp_sharding_strategy: FULL_SHARD" "$tmp/accelerate.yaml" || fail "unsafe fix not applied"
ls -A "$tmp" | grep -q "launchlint-" && fail "a temporary file was left"
echo "fix_cli: ok"
