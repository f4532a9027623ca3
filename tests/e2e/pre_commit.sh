#!/usr/bin/env bash
# The repository's .pre-commit-hooks.yaml, run by the real pre-commit program (offline: language: system).
set -uo pipefail
bin=$(realpath "$1")
repo=$(pwd)
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (tools/setup installs it)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PATH="$(dirname "$bin"):$PATH" PRE_COMMIT_HOME="$tmp/cache"
# pre-commit reads the hook definitions from a git repository: a snapshot of this one.
mkdir "$tmp/hooks" && cp "$repo/.pre-commit-hooks.yaml" "$tmp/hooks/"
(cd "$tmp/hooks" && git init -q && git add . && git -c user.email=t@t -c user.name=t commit -qm hooks)
mkdir "$tmp/project" && cd "$tmp/project" && git init -q
cat > fsdp.yaml <<'Y'
distributed_type: FSDP
num_processes: 8
fsdp_config:
  fsdp_sharding_strategy: SHARD_GRAD_OP
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
Y
git add fsdp.yaml
out=$(pre-commit try-repo "$tmp/hooks" launchlint --all-files 2>&1); rc=$?
if [ $rc -eq 0 ] || ! grep -q "FSDP001" <<<"$out"; then
  echo "FAIL: the hook should fail with FSDP001 (rc=$rc)"; echo "$out"; exit 1
fi
echo "ok   hook fails on the SHARD_GRAD_OP config"
sed -i 's/SHARD_GRAD_OP/FULL_SHARD/' fsdp.yaml && git add fsdp.yaml
out=$(pre-commit try-repo "$tmp/hooks" launchlint --all-files 2>&1); rc=$?
if [ $rc -ne 0 ]; then echo "FAIL: the hook should pass on the fixed config"; echo "$out"; exit 1; fi
echo "ok   hook passes on the fixed config"
