#!/usr/bin/env bash
# The result cache (.launchlint_cache/): a warm run prints byte for byte what a cold one does in every format, an
# edit to any file a launch binds invalidates it, concurrent runs stay correct, and --no-cache or standard input
# write nothing at all.
# Usage: cache.sh path/to/launchlint
set -uo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fail=1; }

mkdir -p repo/configs repo/scripts
cd repo
git init -q .
printf 'distributed_type: FSDP\nnum_processes: 8\nmixed_precision: no\nfsdp_config:\n  fsdp_sharding_strategy: SHARD_GRAD_OP\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n' > configs/fsdp.yaml
printf 'accelerate launch --config_file configs/fsdp.yaml scripts/train.py\n' > launch.sh
printf 'import torch\nprint(torch.__version__)\n' > scripts/train.py
printf '{"train_batch_size": 7, "train_micro_batch_size_per_gpu": 2, "gradient_accumulation_steps": 2, "zero_optimization": {"stage": 3}}\n' > ds.json

for fmt in text concise json sarif github gitlab junit; do
  rm -rf .launchlint_cache
  "$bin" --format "$fmt" . > "../cold.$fmt" 2>&1; cold=$?
  [ -d .launchlint_cache ] || bad "$fmt: no cache written"
  "$bin" --format "$fmt" . > "../warm.$fmt" 2>&1; warm=$?
  "$bin" --no-cache --format "$fmt" . > "../none.$fmt" 2>&1
  if [ $cold -eq $warm ] && cmp -s "../cold.$fmt" "../warm.$fmt" && cmp -s "../cold.$fmt" "../none.$fmt"; then
    ok "$fmt: a warm run prints the same bytes (exit $warm)"
  else bad "$fmt: cached output differs"; diff "../cold.$fmt" "../warm.$fmt" | head -5; fi
done
grep -q "FSDP001" ../warm.text || bad "the fixture lost its FSDP001"
[ "$(cat .launchlint_cache/.gitignore | tail -1)" = "*" ] && ok "the cache folder ignores itself in git" || bad "no .gitignore in the cache"

# An edit to the bound config (not the file named on the command line) invalidates the entry.
"$bin" --format concise launch.sh > /dev/null 2>&1
"$bin" --format concise launch.sh > ../before.txt 2>&1
printf '  fsdp_activation_checkpointing: true\n' >> configs/fsdp.yaml
"$bin" --format concise launch.sh > ../after.txt 2>&1
"$bin" --no-cache --format concise launch.sh > ../after-none.txt 2>&1
if grep -q FSDP001 ../before.txt && ! grep -q FSDP001 ../after.txt && cmp -s ../after.txt ../after-none.txt; then
  ok "an edit to a bound config invalidates the entry"
else bad "a stale entry answered after the config changed"; cat ../after.txt; fi

# Concurrent runs on an empty cache: every one prints what a run without the cache does.
rm -rf .launchlint_cache
"$bin" --no-cache --format json . > ../expected.json 2>&1
for i in 1 2 3 4 5 6 7 8; do "$bin" --format json . > "../par.$i.json" 2>&1 & done
wait
same=1
for i in 1 2 3 4 5 6 7 8; do cmp -s ../expected.json "../par.$i.json" || same=0; done
"$bin" --format json . > ../par.after.json 2>&1
cmp -s ../expected.json ../par.after.json || same=0
[ $same -eq 1 ] && ok "8 concurrent runs, then a warm one, print the right report" || bad "concurrent runs disagree"
leftovers=$(find .launchlint_cache -name '*.tmp*' -o -name '.launchlint*' -type f | grep -v '^.launchlint_cache$' || true)
[ -z "$leftovers" ] && ok "no temporary files left in the cache" || bad "temporary files left: $leftovers"

# --no-cache and standard input write nothing.
rm -rf .launchlint_cache
snapshot() { find . -path ./.git -prune -o -print | sort; }
snapshot > ../tree.before
"$bin" --no-cache . > /dev/null 2>&1
"$bin" - --stdin-filename configs/fsdp.yaml < configs/fsdp.yaml > /dev/null 2>&1
"$bin" --fix --no-cache . > /dev/null 2>&1
snapshot > ../tree.after
cmp -s ../tree.before ../tree.after && ok "--no-cache and standard input write nothing" || { bad "files written"; diff ../tree.before ../tree.after; }

# cache-dir in the project config (relative to it) and --cache-dir.
printf 'cache-dir = "../elsewhere-cache"\n' > launchlint.toml
"$bin" . > /dev/null 2>&1
[ -f ../elsewhere-cache/CACHEDIR.TAG ] && [ ! -d .launchlint_cache ] && ok "cache-dir in launchlint.toml is used" || bad "cache-dir ignored"
"$bin" --cache-dir ../cli-cache . > /dev/null 2>&1
[ -f ../cli-cache/CACHEDIR.TAG ] && ok "--cache-dir is used" || bad "--cache-dir ignored"
rm launchlint.toml

# Discovery never walks into the cache.
rm -rf .launchlint_cache; "$bin" . > /dev/null 2>&1
printf 'distributed_type: FSDP\nnum_processes: 0\n' > .launchlint_cache/bad.yaml
out=$("$bin" --no-cache --format concise . 2>&1)
grep -q "launchlint_cache" <<<"$out" && bad "a file in .launchlint_cache was linted" || ok "the cache folder is not linted"
exit $fail
