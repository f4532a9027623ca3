#!/usr/bin/env bash
# The README's rule table is generated from `launchlint rule --all` and must not be stale; the bundled example
# must show FSDP001, and the README's copy of that output (the block after `$ launchlint
# examples/7b-lora-shard-grad-op`) must be what the program prints.
set -euo pipefail
bin=$1
bash tools/gen-readme-rules "$bin" --check
out=$("$bin" --isolated --color never examples/7b-lora-shard-grad-op || true)
grep -q "FSDP001" <<<"$out" || { echo "the bundled example does not show FSDP001:"; echo "$out"; exit 1; }
shown=$(awk '/^\$ launchlint examples\/7b-lora-shard-grad-op$/ {on=1; next} on && /^```/ {exit} on {print}' README.md)
if [ "$shown" != "$out" ]; then
  echo "README.md's example output is stale; it should read:"
  diff <(echo "$shown") <(echo "$out") || true
  exit 1
fi
echo ok
