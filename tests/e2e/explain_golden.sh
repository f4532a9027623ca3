#!/usr/bin/env bash
# `launchlint explain --format json` on multi-file launches, compared with tests/golden/explain/*.json.
# UPDATE_GOLDEN=1 rewrites the goldens (review the diff).
set -uo pipefail
bin=$1
cases=(
  examples/7b-lora-shard-grad-op
  fixtures/overridden-setting/bad_trainer_fsdp1_strategy
  fixtures/overridden-setting/bad_plugin_and_env
  fixtures/overridden-setting/ok_flag_override
  fixtures/fsdp-disabled-by-launch-flag/bad_multi_gpu
  fixtures/shard-grad-op-without-activation-checkpointing/ok_launch_cli_checkpointing
  fixtures/shard-grad-op-without-activation-checkpointing/bad_torchrun_trainer
  fixtures/shard-grad-op-without-activation-checkpointing/bad_sbatch
  fixtures/shard-grad-op-without-activation-checkpointing/ok_makefile_checkpointing
)
fail=0
for c in "${cases[@]}"; do
  name=$(echo "$c" | tr '/' '_')
  golden=tests/golden/explain/$name.json
  out=$("$bin" explain --isolated --format json "$c")
  if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
    printf '%s\n' "$out" > "$golden"
    continue
  fi
  if ! diff -u "$golden" <(printf '%s\n' "$out") > /tmp/explain_diff.$$; then
    echo "FAIL $c (golden $golden):"
    head -40 /tmp/explain_diff.$$
    fail=1
  else
    echo "ok   $c"
  fi
done
rm -f /tmp/explain_diff.$$
exit $fail
