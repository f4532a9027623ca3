#!/usr/bin/env bash
# The benchmark's workloads (bench/gen.py) are deterministic: the same bytes on every run and machine, pinned by
# their SHA-256 (docs/performance.md quotes them; a change to gen.py updates both). And launchlint's report on the
# 3,400-file monorepo is the same with --jobs 1, 2 and 3, byte for byte (files are read, launches bound and checked in
# parallel, findings are reported in one order), and the same again from the result cache.
set -uo pipefail
bin=$(realpath "$1")
command -v python3 >/dev/null || { echo "python3 not found"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
small_sha=$(python3 bench/gen.py "$tmp/a" small | sed -n 's/.*sha256 //p')
again_sha=$(python3 bench/gen.py "$tmp/b" small | sed -n 's/.*sha256 //p')
if [ "$small_sha" != "$again_sha" ]; then echo "FAIL: two generations of the small project differ"; fail=1; fi
expected_small=2f90dd5352a62ea06d2ced2dd306b742f2caae3dfebdc106b734207b12d91d01
if [ "$small_sha" != "$expected_small" ]; then
  echo "FAIL: small project sha256 $small_sha, pinned $expected_small (update this test and docs/performance.md)"
  fail=1
fi
mono_sha=$(python3 bench/gen.py "$tmp/mono" mono 1 | sed -n 's/.*sha256 //p')
expected_mono=73095763e6819f21a8aeccc4b4cc255d5713a3c60a94238f9f447fec2c5d3e09
if [ "$mono_sha" != "$expected_mono" ]; then
  echo "FAIL: monorepo sha256 $mono_sha, pinned $expected_mono (update this test and docs/performance.md)"
  fail=1
fi
# --no-cache: with the result cache, the second run would be answered from the first one's entry.
"$bin" --isolated --no-cache --jobs 1 --format json "$tmp/mono" > "$tmp/j1.json"
rc1=$?
"$bin" --isolated --no-cache --jobs 2 --format json "$tmp/mono" > "$tmp/j2.json"
rc2=$?
"$bin" --isolated --no-cache --jobs 3 --format json "$tmp/mono" > "$tmp/j3.json"
rc3=$?
if [ "$rc1" -gt 1 ] || [ "$rc2" -gt 1 ] || [ "$rc3" -gt 1 ]; then echo "FAIL: exit $rc1 / $rc2 / $rc3 on the monorepo"; fail=1; fi
if ! cmp -s "$tmp/j1.json" "$tmp/j2.json"; then echo "FAIL: --jobs 1 and --jobs 2 reports differ"; fail=1; fi
if ! cmp -s "$tmp/j1.json" "$tmp/j3.json"; then echo "FAIL: --jobs 1 and --jobs 3 reports differ"; fail=1; fi
# The result cache on the same tree: the run that writes the entry and the one answered from it print the same
# bytes as the uncached runs, in every format a CI reads.
for fmt in json text sarif github; do
  "$bin" --isolated --no-cache --jobs 2 --format "$fmt" "$tmp/mono" > "$tmp/none.$fmt"
  "$bin" --isolated --cache-dir "$tmp/cache" --jobs 2 --format "$fmt" "$tmp/mono" > "$tmp/cold.$fmt"
  "$bin" --isolated --cache-dir "$tmp/cache" --jobs 1 --format "$fmt" "$tmp/mono" > "$tmp/warm.$fmt"
  if ! cmp -s "$tmp/none.$fmt" "$tmp/cold.$fmt" || ! cmp -s "$tmp/none.$fmt" "$tmp/warm.$fmt"; then
    echo "FAIL: --format $fmt: the cached runs' output differs from an uncached run's"; fail=1
  fi
  rm -rf "$tmp/cache"
done
findings=$(grep -c '"code"' "$tmp/j1.json" || true)
if [ "$findings" -lt 100 ]; then echo "FAIL: only $findings findings on the monorepo (the workload no longer exercises the rules)"; fail=1; fi
[ "$fail" -eq 0 ] && echo "bench workloads deterministic; --jobs 1, 2 and 3 and cached runs agree ($findings findings)"
exit "$fail"
