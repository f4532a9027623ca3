#!/usr/bin/env bash
# Real-world cases: each folder of tests/realworld/ rebuilds the files of one public bug report (see its CASE.md)
# whose cause was a launch mistake visible in those files. CASE.md names the codes that must be reported:
#   expect: CODE[,CODE]            every code must be among the findings of `launchlint <case>`
#   expect: none-yet (class X)     no rule models the failure class yet: counted, not failed
# A case whose expected code is not a rule of this build (a rule that is planned) is counted as pending, not failed.
#   known-miss: CODE (why)         the rule exists but does not model this form yet: counted as a miss, not failed
#                                  (fails once the code is reported, so the line is removed when the rule learns it)
# Prints "N of M detected" (M = every case) and fails when a registered expected code is not reported.
set -uo pipefail
bin=$(realpath "$1")
cd "$(dirname "$0")/../realworld" || exit 1
total=0 detected=0 pending=0 none=0 known=0 fail=0
for dir in */; do
  dir=${dir%/}
  [ -f "$dir/CASE.md" ] || { echo "FAIL $dir: no CASE.md"; fail=1; continue; }
  total=$((total + 1))
  expect=$(sed -n 's/^expect:[[:space:]]*//p' "$dir/CASE.md" | head -1)
  if [ -z "$expect" ]; then echo "FAIL $dir: CASE.md has no 'expect:' line"; fail=1; continue; fi
  if [[ $expect == none-yet* ]]; then
    none=$((none + 1))
    echo "none     $dir  ($expect)"
    continue
  fi
  out=$("$bin" --isolated --format concise --exit-zero --quiet "$dir" 2>&1)
  missing=() unregistered=()
  IFS=',' read -ra codes <<<"${expect%% *}"
  for code in "${codes[@]}"; do
    code=${code//[[:space:]]/}
    [ -z "$code" ] && continue
    if ! "$bin" rule "$code" >/dev/null 2>&1; then unregistered+=("$code"); continue; fi
    grep -qE "(^|[^A-Z0-9])$code([^0-9]|$)" <<<"$out" || missing+=("$code")
  done
  known_miss=$(sed -n 's/^known-miss:[[:space:]]*\([A-Z]*[0-9]*\).*/\1/p' "$dir/CASE.md" | tr '\n' ' ')
  if [ ${#missing[@]} -gt 0 ] && [ -n "$known_miss" ] && [ "${missing[*]} " = "$known_miss" ]; then
    known=$((known + 1))
    echo "miss     $dir  (${missing[*]}: $(sed -n 's/^known-miss:[[:space:]]*//p' "$dir/CASE.md" | head -1))"
  elif [ -n "$known_miss" ] && [ ${#missing[@]} -eq 0 ] && [ ${#unregistered[@]} -eq 0 ]; then
    echo "FAIL     $dir  now reports $known_miss: remove its known-miss line"
    fail=1
  elif [ ${#missing[@]} -gt 0 ]; then
    echo "FAIL     $dir  expected ${missing[*]}, got:"
    sed 's/^/           /' <<<"$out"
    fail=1
  elif [ ${#unregistered[@]} -gt 0 ]; then
    pending=$((pending + 1))
    echo "pending  $dir  (${unregistered[*]} not in this build)"
  else
    detected=$((detected + 1))
    echo "ok       $dir  ($expect)"
  fi
done
echo "$detected of $total detected ($known known misses of existing rules, $pending waiting for a planned rule, $none of a class no rule models yet)"
[ "$total" -gt 0 ] || { echo "FAIL: no cases"; fail=1; }
exit $fail
