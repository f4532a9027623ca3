#!/usr/bin/env bash
# Installs pure-Python libraries the device machine lacks from source trees carried with the run (it reaches no
# package registry): pip, offline, no dependencies, no build isolation, into one --target folder that the oracle
# runs get through PYTHONPATH. Used for DeepSpeed, whose current releases need pydantic 2 (a compiled
# pydantic-core that cannot be built offline): DeepSpeed 0.14.5, the last release that accepts pydantic 1, with
# pydantic 1.10.26 as pure Python (SKIP_CYTHON), hjson and py-cpuinfo. No DeepSpeed op is compiled (DS_BUILD_OPS=0).
#   tools/oracle/install_carried.sh TARGET SRC...      each SRC a source tree (setup.py or pyproject.toml)
set -euo pipefail
target=$1; shift
mkdir -p "$target"
for src in "$@"; do
  work=$(mktemp -d)
  cp -r "$src/." "$work/"
  SKIP_CYTHON=1 DS_BUILD_OPS=0 python3 -m pip install -q --no-deps --no-build-isolation --no-index \
    --target "$target" "$work"
  rm -rf "$work"
done
PYTHONPATH="$target" python3 - <<'PY'
import importlib.metadata as md
for name in ("deepspeed", "pydantic", "hjson", "py-cpuinfo"):
    try:
        print(name, md.version(name))
    except md.PackageNotFoundError:
        print(name, "not installed")
PY
