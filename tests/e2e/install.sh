#!/usr/bin/env bash
# Installing from source: `pip install .` goes through the in-tree PEP 517 backend (tools/pep517) with no index
# (here it packs this build's binary, binary= / LAUNCHLINT_WHEEL_BINARY, instead of compiling it again), the
# sdist hook writes a buildable source archive, and `cmake --install` installs bin/launchlint.
set -uo pipefail
bin=$(realpath "$1")
build=$(dirname "$bin")
repo=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
version=$("$bin" --version | awk '{print $2}')

python3 -m venv "$tmp/venv" >/dev/null
out=$(LAUNCHLINT_WHEEL_BINARY="$bin" "$tmp/venv/bin/pip" install --no-index "$repo" 2>&1); rc=$?
check "pip install --no-index . (in-tree backend, no build requirement to download)" '[ $rc -eq 0 ]' || echo "$out" | tail -5
out=$(cd "$tmp" && "$tmp/venv/bin/launchlint" "$repo/examples/7b-lora-shard-grad-op" 2>&1); rc=$?
check "the pip-installed launchlint finds FSDP001" '[ $rc -eq 1 ] && grep -q FSDP001 <<<"$out"'
check "its wheel is tagged for this platform" 'ls "$tmp"/venv/lib/python3*/site-packages/launchlint-"$version".dist-info/WHEEL >/dev/null && grep -q "^Tag: py3-none-linux_x86_64$" "$tmp"/venv/lib/python3*/site-packages/launchlint-"$version".dist-info/WHEEL'

sdist=$(cd "$repo" && python3 -c "
import sys; sys.path.insert(0, 'tools/pep517')
import launchlint_build as b
print(b.build_sdist('$tmp'))")
tar -tzf "$tmp/$sdist" > "$tmp/sdist.txt" 2>/dev/null
check "build_sdist writes launchlint-$version.tar.gz with the sources and PKG-INFO" \
  '[ "$sdist" = "launchlint-$version.tar.gz" ] && grep -qx "launchlint-$version/CMakeLists.txt" "$tmp/sdist.txt" && grep -qx "launchlint-$version/pyproject.toml" "$tmp/sdist.txt" && grep -qx "launchlint-$version/PKG-INFO" "$tmp/sdist.txt"'

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null; rc=$?
check "cmake --install installs bin/launchlint" '[ $rc -eq 0 ] && [ "$("$tmp/prefix/bin/launchlint" --version)" = "launchlint $version" ]'
exit $fail
