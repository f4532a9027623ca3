#!/usr/bin/env bash
# The release artifacts of tools/release (dist/): the wheel installs into a fresh venv with no index and its
# `launchlint` finds FSDP001 in the bundled example; the tarball holds the same binary; the binary needs only
# glibc (readelf -d, ldd). The release build is slow on small machines, so it is not part of the default test
# run: CI runs tools/release first (LAUNCHLINT_REQUIRE_DIST=1); without dist/ this test is skipped (77).
set -uo pipefail
repo=$(pwd)
dist=${LAUNCHLINT_DIST:-$repo/dist}
version=$(python3 tools/pep517/launchlint_build.py version)
wheel=$(ls "$dist"/launchlint-"$version"-py3-none-manylinux_*_x86_64.whl 2>/dev/null | head -1)
if [ -z "$wheel" ]; then
  [ "${LAUNCHLINT_REQUIRE_DIST:-0}" = 1 ] && { echo "FAIL: no wheel in $dist (run tools/release)"; exit 1; }
  echo "skipped: no release in $dist (run tools/release)"; exit 77
fi
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. the binary needs nothing outside glibc
out=$(bash tools/check-portable "$dist/launchlint" 2>&1); rc=$?
echo "$out"; ldd "$dist/launchlint"
check "dist/launchlint needs only glibc" '[ $rc -eq 0 ]'
# Its allocator is jemalloc, linked in (LAUNCHLINT_JEMALLOC): asked through its own environment variable, it
# prints its statistics at exit; glibc's malloc ignores the variable.
out=$(MALLOC_CONF=stats_print:true "$dist/launchlint" --version 2>&1)
check "dist/launchlint allocates with jemalloc" 'grep -q "Begin jemalloc statistics" <<<"$out"'

# 2. the wheel: a fresh venv, no index, the console entry point, the bundled example
python3 -m venv "$tmp/venv" >/dev/null
"$tmp/venv/bin/pip" install -q --no-index "$wheel"; rc=$?
check "pip install --no-index $(basename "$wheel")" '[ $rc -eq 0 ]'
out=$(cd "$tmp" && "$tmp/venv/bin/launchlint" "$repo/examples/7b-lora-shard-grad-op" 2>&1); rc=$?
check "the installed launchlint finds FSDP001 (exit 1)" '[ $rc -eq 1 ] && grep -q FSDP001 <<<"$out"'
out=$("$tmp/venv/bin/launchlint" --version); check "--version prints $version" '[ "$out" = "launchlint $version" ]'
out=$("$tmp/venv/bin/python" -m launchlint --version); check "python -m launchlint works" '[ "$out" = "launchlint $version" ]'
installed=$("$tmp/venv/bin/python" -c 'import launchlint; print(launchlint.binary())')
check "the installed binary is the released one" 'cmp -s "$installed" "$dist/launchlint"'
"$tmp/venv/bin/pip" uninstall -q -y launchlint; rc=$?
check "pip uninstall removes it" '[ $rc -eq 0 ] && [ ! -e "$tmp/venv/bin/launchlint" ]'

# 3. the tarball
tarball="$dist/launchlint-$version-linux-x86_64.tar.gz"
tar -xzf "$tarball" -C "$tmp"; rc=$?
check "$(basename "$tarball") unpacks" '[ $rc -eq 0 ]'
out=$("$tmp/launchlint-$version-linux-x86_64/launchlint" examples/7b-lora-shard-grad-op 2>&1)
check "the tarball's launchlint finds FSDP001" 'grep -q FSDP001 <<<"$out"'
exit $fail
