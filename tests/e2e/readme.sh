#!/usr/bin/env bash
# The README's rule table is generated from `launchlint rule --all` and must not be stale; the bundled example
# must show FSDP001.
set -euo pipefail
bin=$1
bash tools/gen-readme-rules "$bin" --check
out=$("$bin" --isolated --color never examples/7b-lora-shard-grad-op || true)
grep -q "FSDP001" <<<"$out" || { echo "the bundled example does not show FSDP001:"; echo "$out"; exit 1; }
echo ok
