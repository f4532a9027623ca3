#!/usr/bin/env bash
# The repository's .pre-commit-hooks.yaml, run by the real pre-commit program: `language: python`, so pre-commit
# installs launchlint itself with pip through the in-tree PEP 517 backend (here packing this build's binary,
# LAUNCHLINT_WHEEL_BINARY, instead of compiling it again; no index is used). The hook sees whole launches: a
# changed DeepSpeed JSON whose batch size no longer matches the unchanged launch script fails it (DS001).
set -uo pipefail
bin=$(realpath "$1")
repo=$(pwd)
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (tools/setup --tests installs it)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PRE_COMMIT_HOME="$tmp/cache" LAUNCHLINT_WHEEL_BINARY="$bin" PIP_NO_INDEX=1
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
fail=0
# pre-commit reads the hooks from a git repository: a snapshot of this working tree (tracked and new files), one
# tar reading the list (xargs would split a long list into several archives, and the reading tar stops at the first).
mkdir "$tmp/hooks"
(cd "$repo" && git ls-files -co --exclude-standard -z | tar --null -T - -cf - 2>/dev/null) | tar -xf - -C "$tmp/hooks"
(cd "$tmp/hooks" && git init -q && git add -A && git commit -qm hooks)
hook() { (cd "$tmp/project" && pre-commit try-repo "$tmp/hooks" launchlint "$@" 2>&1); }

mkdir "$tmp/project" && cd "$tmp/project" && git init -q
mkdir -p scripts configs
cat > scripts/launch.sh <<'SH'
#!/usr/bin/env bash
deepspeed --num_gpus 8 train.py --deepspeed configs/ds.json --per_device_train_batch_size 4 --gradient_accumulation_steps 2
SH
cat > train.py <<'PY'
from transformers import HfArgumentParser, Trainer, TrainingArguments

parser = HfArgumentParser(TrainingArguments)
(args,) = parser.parse_args_into_dataclasses()
PY
cat > configs/ds.json <<'J'
{
  "train_batch_size": 64,
  "train_micro_batch_size_per_gpu": 4,
  "gradient_accumulation_steps": 2,
  "zero_optimization": {"stage": 2}
}
J
git add -A && git commit -qm base
out=$(hook --all-files); rc=$?
if [ $rc -eq 0 ]; then echo "ok   the consistent project passes"; else echo "FAIL the consistent project"; echo "$out"; fail=1; fi

# Only the JSON changes: 4 * 2 * 8 ranks is 64, not 32.
sed -i 's/"train_batch_size": 64/"train_batch_size": 32/' configs/ds.json && git add configs/ds.json
out=$(hook); rc=$?
if [ $rc -ne 0 ] && grep -q "configs/ds.json:2:.*DS001" <<<"$out"; then
  echo "ok   a changed ds.json that breaks DS001 against the unchanged launch script fails the hook"
else
  echo "FAIL the hook should fail with DS001 in configs/ds.json (rc=$rc)"; echo "$out"; fail=1
fi
git reset -q && git checkout -q HEAD -- configs/ds.json

# An excluded file passed by pre-commit is skipped (force-exclude); without the exclude it fails the hook.
mkdir -p vendor && cp "$repo/examples/7b-lora-shard-grad-op/fsdp.yaml" vendor/fsdp.yaml && git add -A
out=$(hook); rc=$?
if [ $rc -ne 0 ] && grep -q "vendor/fsdp.yaml:.*FSDP001" <<<"$out"; then echo "ok   a staged SHARD_GRAD_OP config fails the hook";
else echo "FAIL the staged vendor/fsdp.yaml should fail with FSDP001"; echo "$out"; fail=1; fi
printf 'extend-exclude = ["vendor"]\n' > launchlint.toml && git add -A
out=$(hook); rc=$?
if [ $rc -eq 0 ]; then echo "ok   once excluded, pre-commit's file is not linted"; else echo "FAIL force-exclude"; echo "$out"; fail=1; fi
exit $fail
