#!/usr/bin/env bash
# Launches declared in launchlint.toml ([[launch]]) bind a config and a script like a launch script would.
set -uo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
cat > fsdp.yaml <<'Y'
distributed_type: FSDP
num_processes: 8
fsdp_config:
  fsdp_sharding_strategy: SHARD_GRAD_OP
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
Y
printf 'from transformers import HfArgumentParser, TrainingArguments\n(args,) = HfArgumentParser(TrainingArguments).parse_args_into_dataclasses()\n' > train.py
fail=0
# 1. The command turns checkpointing on: FSDP001 must stay silent.
cat > launchlint.toml <<'T'
[[launch]]
name = "lora"
command = "accelerate launch --config_file fsdp.yaml train.py --output_dir o --gradient_checkpointing True"
T
out=$("$bin" --format concise . 2>&1)
if grep -q FSDP001 <<<"$out"; then echo "FAIL: declared command with checkpointing still reports FSDP001"; echo "$out"; fail=1; else echo "ok   declared command silences FSDP001"; fi
explained=$("$bin" explain --format json .)
grep -q '"per_file": false' <<<"$explained" || { echo "FAIL: no bound launch in explain"; fail=1; }
# 2. Without checkpointing the finding is back, and a launch flag in the declared command points into launchlint.toml.
cat > launchlint.toml <<'T'
[[launch]]
command = "accelerate launch --config_file fsdp.yaml --multi_gpu train.py --output_dir o"
T
out=$("$bin" --format concise . 2>&1)
grep -q "launchlint.toml:2:[0-9]*: FSDP015" <<<"$out" || { echo "FAIL: FSDP015 not reported at launchlint.toml:2"; echo "$out"; fail=1; }
[ $fail -eq 0 ] && echo "ok   declared command flags point into launchlint.toml"
# 3. The file-list form.
cat > launchlint.toml <<'T'
[[launch]]
files = ["fsdp.yaml", "train.py"]
T
out=$("$bin" --format concise . 2>&1)
grep -q "fsdp.yaml:4:[0-9]*: FSDP001" <<<"$out" || { echo "FAIL: file-list launch lost FSDP001"; echo "$out"; fail=1; }
[ $fail -eq 0 ] && echo "ok   file-list launch"
# 4. Positions of several commands, one of them on several lines, are those of launchlint.toml (each command is
# parsed on its own and placed there).
cat > launchlint.toml <<'T'
# Two launches; the second one's command spans lines.
[[launch]]
name = "one"
command = "accelerate launch --config_file fsdp.yaml --multi_gpu train.py --output_dir o"

[[launch]]
name = "two"
command = """
accelerate launch \
  --config_file missing.yaml --multi_gpu \
  train.py --output_dir o
"""

[[launch]]
name = "three"
command = 'FOO=1 torchrun --nproc_per_node 2 absent.py --deepspeed ds.json'
T
out=$("$bin" --no-cache --format concise . 2>&1 | grep -o '^[^ ]*: [A-Z]*[0-9][0-9]*' | sort)
want=$(printf '%s\n' "./launchlint.toml:4:54: FSDP015" "./launchlint.toml:10:17: LL006" "./launchlint.toml:16:46: LL006" \
  "./launchlint.toml:16:68: LL006" "fsdp.yaml:3:1: ACC007" | sort)
if [ "$out" = "$want" ]; then echo "ok   positions of several declared commands"; else
  echo "FAIL: positions of several declared commands:"; echo "$out"; fail=1; fi
exit $fail
