#!/usr/bin/env bash
# Hostile inputs: launchlint must finish quickly with a finding (or nothing), never crash or hang.
# Usage: robustness.sh path/to/launchlint
set -uo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0

check() {  # name, expected code in output (or "-" for none), files...
  local name=$1 expect=$2
  shift 2
  local start end rc out
  start=$(date +%s)
  out=$(timeout 60 "$bin" --isolated --format concise "$@" 2>&1)
  rc=$?
  end=$(date +%s)
  if [ $rc -ne 0 ] && [ $rc -ne 1 ]; then
    echo "FAIL $name: exit $rc"; echo "$out" | head -5; fail=1; return
  fi
  if [ "$expect" != "-" ] && ! grep -q "$expect" <<<"$out"; then
    echo "FAIL $name: expected $expect"; echo "$out" | head -5; fail=1; return
  fi
  echo "ok   $name (exit $rc, $((end - start)) s)"
}

: > empty.yaml
check "empty YAML" - empty.yaml
: > empty.json
check "empty JSON" LL001 empty.json
head -c 4096 /dev/urandom > binary.yaml; printf '\0' >> binary.yaml
check "binary file named .yaml" LL002 binary.yaml
printf 'distributed_type: FSDP\nnum_processes: 8\nkey: "\xff\xfe"\n' > bad_utf8.yaml
check "invalid UTF-8" LL002 bad_utf8.yaml
{
  echo 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'
  prev=a
  for n in b c d e f g h i; do echo "$n: &$n [*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev,*$prev]"; prev=$n; done
  echo 'distributed_type: FSDP'
} > bomb.yaml
check "YAML alias bomb" LL001 bomb.yaml
python3 -c "print('distributed_type: ' + '['*100000)" > nested.yaml
check "100k nested brackets (YAML)" LL001 nested.yaml
python3 -c "print('{\"zero_optimization\": ' + '['*100000)" > nested.json
check "100k nested brackets (JSON)" LL001 nested.json
python3 -c "print('[parallelism]\nx = ' + '['*100000)" > nested.toml
check "100k nested brackets (TOML)" LL001 nested.toml
python3 -c "print('from torch.distributed.fsdp import FullyShardedDataParallel\nx = ' + '('*100000)" > nested.py
check "100k nested brackets (Python)" LL001 nested.py
python3 - <<'PY'
with open("big.yaml", "w") as f:
    f.write("distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n")
    f.write("commands:\n")
    line = "  - echo 0123456789012345678901234567890123456789012345678901234567890123456789\n"
    f.write(line * (50 * 1024 * 1024 // len(line)))
PY
check "50 MB YAML" - big.yaml
mkdir dir.yaml
check "directory named x.yaml" - dir.yaml
mkdir loop && ln -s .. loop/up
check "symlink loop" - loop
printf 'distributed_type: FSDP\r\nnum_processes: 8\r\nfsdp_config:\r\n  fsdp_sharding_strategy: SHARD_OP\r\n' > crlf.yaml
check "CRLF" - crlf.yaml
check "missing file" LL002 does-not-exist.yaml
printf '\xEF\xBB\xBE' > toml_ub1.toml; check "toml++ UB input EF BB BE" - toml_ub1.toml
printf 'a = 1 \xc2\xa7\n[parallelism]\n' > toml_ub2.toml; check "toml++ UB input section sign" - toml_ub2.toml
printf '[\x01' > toml_ub3.toml; check "toml++ assertion input" - toml_ub3.toml
exit $fail
