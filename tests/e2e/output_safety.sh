#!/usr/bin/env bash
# Reports are written safely: write errors exit 2, an output never replaces a linted input, a report file is
# replaced atomically (concurrent writers leave one whole report), standard input obeys the input size limit.
# Usage: output_safety.sh path/to/launchlint
set -uo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0
expect_rc() {  # name, expected exit code, actual exit code
  if [ "$2" -eq "$3" ]; then echo "ok   $1 (exit $3)"; else echo "FAIL $1: exit $3, expected $2"; fail=1; fi
}
printf 'distributed_type: FSDP\nnum_processes: 1\nfsdp_config:\n  fsdp_sharding_strategy: SHARD_OP\n' > fsdp.yaml
cp fsdp.yaml original.yaml

"$bin" --isolated -o /dev/full fsdp.yaml 2>/dev/null; expect_rc "-o /dev/full" 2 $?
"$bin" --isolated fsdp.yaml >/dev/full 2>/dev/null; expect_rc "standard output on /dev/full" 2 $?
# Standard output is written as the report is rendered (64 KiB at a time): a report of many findings written to a
# full device or a pipe closed early still exits 2, and a whole one arrives byte for byte as a file would hold it.
mkdir many
for i in $(seq 1 400); do cp fsdp.yaml "many/f$i.yaml"; done
"$bin" --isolated --no-cache many >/dev/full 2>/dev/null; expect_rc "a long report on /dev/full" 2 $?
"$bin" --isolated --no-cache many 2>/dev/null | head -c 100 >/dev/null; expect_rc "a long report to a pipe closed early" 2 "${PIPESTATUS[0]}"
"$bin" --isolated --no-cache many >many.stdout 2>/dev/null
"$bin" --isolated --no-cache -o many.file many 2>/dev/null
if [ "$(wc -c <many.stdout)" -gt 131072 ] && cmp -s many.stdout many.file; then echo "ok   a long report on standard output is whole"
else echo "FAIL a long report on standard output differs from the file"; fail=1; fi
rm -rf many many.stdout many.file
"$bin" --isolated -o fsdp.yaml fsdp.yaml 2>/dev/null; expect_rc "-o naming the linted file" 2 $?
cmp -s fsdp.yaml original.yaml && echo "ok   the input is untouched" || { echo "FAIL the input was overwritten"; fail=1; }
ln -s fsdp.yaml link.yaml
"$bin" --isolated -o link.yaml . 2>/dev/null; expect_rc "-o naming a linted file through a link" 2 $?
# A linted file launchlint does not know (kept as its path alone by a streaming run, RunResult::quiet) is an input
# too, with or without the result cache.
printf 'rows: [1]\n' > data.yaml
"$bin" --isolated --no-cache -o data.yaml . 2>/dev/null; expect_rc "-o naming a linted file launchlint does not know" 2 $?
"$bin" --isolated -o data.yaml . 2>/dev/null; "$bin" --isolated -o data.yaml . 2>/dev/null
expect_rc "the same, from the result cache" 2 $?
[ "$(cat data.yaml)" = "rows: [1]" ] && echo "ok   that input is untouched" || { echo "FAIL data.yaml was overwritten"; fail=1; }
rm -rf data.yaml .launchlint_cache
mkdir out.d
"$bin" --isolated -o out.d fsdp.yaml 2>/dev/null; expect_rc "-o naming a directory" 2 $?
"$bin" --isolated -o /dev/null fsdp.yaml; expect_rc "-o /dev/null" 1 $?

# Four writers at once: the report is one whole SARIF log, and no temporary file is left behind.
for i in 1 2 3 4; do "$bin" --isolated --format sarif -o report.sarif fsdp.yaml & done
wait
if jq -e '.runs[0].results | length > 0' report.sarif >/dev/null; then echo "ok   concurrent writers"; else
  echo "FAIL concurrent writers: report.sarif is not one whole SARIF log"; fail=1; fi
left=$(find . -name '.*launchlint-*' | wc -l)
[ "$left" -eq 0 ] && echo "ok   no temporary files left" || { echo "FAIL $left temporary files left"; fail=1; }
[ "$(stat -c %a report.sarif)" != 600 ] && echo "ok   the report is not left private (mode $(stat -c %a report.sarif))" ||
  { echo "FAIL report.sarif has mode 600"; fail=1; }

head -c $((65 * 1024 * 1024)) /dev/zero | "$bin" --isolated - --stdin-filename big.yaml >/dev/null 2>&1
expect_rc "standard input over 64 MiB" 2 $?
"$bin" --isolated - --stdin-filename x.yaml < out.d >/dev/null 2>&1; expect_rc "standard input a directory" 2 $?
exit $fail
