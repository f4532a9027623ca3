#!/usr/bin/env bash
# Streaming memory (docs/limits.md "Memory"): what each file of a repository of small files adds to the peak RSS of a
# run, measured between two sizes of the same generated monorepo (bench/gen.py `mono 1` and `mono 2`: 3,412 and
# 6,822 files), so that the fixed cost of the program cancels out. The growth per file must stay under a bound well
# below what it was before each file's state was made small: a regression that keeps something per file again
# shows as growth, whatever the machine. Not a timed test.
# Usage: many_files_memory.sh path/to/launchlint
set -uo pipefail
bin=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Bytes of peak RSS per file checked added, at most, with `--format json` (2026-12-03: 941 bytes since a file that gave
# nothing is kept as its path alone; 975 since parsed scripts'
# facts are kept packed until their launches and standard output is written as the report is rendered; 1,868–1,902
# since launch configs' trees are read again for their launches and a Document, SourceFile and parse::Node were made
# smaller; 3,045–3,071 before that, 3,659–3,678 before the per-file state was first cut: docs/limits.md "Memory").
# Lower it as the per-file state shrinks. Under AddressSanitizer every allocation carries a redzone and freed blocks wait in quarantine: not
# measured there.
bound=1200
if [ -n "${LAUNCHLINT_SANITIZED:-}" ]; then
  echo "skip: peak RSS under a sanitizer says nothing about the program's own memory"
  exit 77
fi
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }

for scale in 1 2; do
  python3 "$repo/bench/gen.py" "$tmp/mono$scale" mono "$scale" >/dev/null || { echo "FAIL: bench/gen.py mono $scale"; exit 1; }
done

# scale: runs launchlint on mono SCALE (one thread: no second heap arena) and prints "files peak-KiB".
measure() {
  (cd "$tmp" && python3 - "$bin" "mono$1" <<'PY'
import json, resource, subprocess, sys
p = subprocess.run([sys.argv[1], "--isolated", "--no-cache", "--jobs", "1", "--format", "json", sys.argv[2]],
                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=900)
files = json.loads(p.stdout)["files_checked"] if p.returncode in (0, 1) else -1
print(files, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
PY
  )
}

# A machine under load can still page or delay a run: a growth over the bound is measured once more, and fails only
# if it is over both times (a regression of this kind costs the same bytes every time).
fail=0
for attempt in 1 2; do
  read -r files1 kib1 <<<"$(measure 1)"
  read -r files2 kib2 <<<"$(measure 2)"
  if [ "$files1" -le 0 ] || [ "$files2" -le "$files1" ]; then
    echo "FAIL: launchlint did not lint the workloads (files checked: $files1, $files2)"
    exit 1
  fi
  per_file=$(((kib2 - kib1) * 1024 / (files2 - files1)))
  echo "     mono 1: $files1 files, peak RSS $((kib1 / 1024)) MiB; mono 2: $files2 files, $((kib2 / 1024)) MiB;" \
    "$per_file bytes a file"
  if [ "$per_file" -le "$bound" ]; then
    echo "ok   peak RSS grows $per_file bytes a file (bound $bound)"
    exit 0
  fi
  [ "$attempt" = 1 ] && echo "     over the bound of $bound bytes a file; measuring again"
done
echo "FAIL: peak RSS grows $per_file bytes a file, more than $bound (docs/limits.md \"Memory\")"
exit 1
