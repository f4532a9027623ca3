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

# name, expected code (or -), max CPU seconds, max MiB of peak memory, max KiB of output, files...: like check,
# and also bounds CPU time, memory and the size of the text report (and its longest line).
check_bounded() {
  local name=$1 expect=$2 max_s=$3 max_mib=$4 max_kib=$5
  # Under AddressSanitizer (tools/test-sanitize sets LAUNCHLINT_SANITIZED) code runs about 3x slower and shadow
  # memory roughly triples the footprint: the bounds stay a function of input size, scaled by that factor.
  if [ -n "${LAUNCHLINT_SANITIZED:-}" ]; then max_s=$((max_s * 3)); max_mib=$((max_mib * 3)); fi
  shift 5
  local res
  res=$(python3 - "$bin" "$@" <<'PY'
import resource, subprocess, sys, time
try:
    p = subprocess.run([sys.argv[1], "--isolated", "--format", "text", *sys.argv[2:]], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120)
    rc, out = p.returncode, p.stdout
except subprocess.TimeoutExpired as e:
    rc, out = 124, e.stdout or b""
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
secs = usage.ru_utime + usage.ru_stime  # CPU time: the machines that run the tests are often busy
mib = usage.ru_maxrss // 1024
longest = max((len(l) for l in out.splitlines()), default=0)
print(rc, f"{secs:.1f}", mib, len(out) // 1024, longest)
sys.stdout.buffer.write(out[:1000] + b"\n" + out[-4000:])
PY
)
  local rc secs mib kib longest
  read -r rc secs mib kib longest <<<"$(head -1 <<<"$res")"
  local out
  out=$(tail -n +2 <<<"$res")
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    echo "FAIL $name: exit $rc"; echo "$out" | head -5; fail=1; return
  fi
  if [ "$expect" != "-" ] && ! grep -q "$expect" <<<"$out"; then
    echo "FAIL $name: expected $expect"; echo "$out" | head -5; fail=1; return
  fi
  if awk -v s="$secs" -v m="$max_s" 'BEGIN { exit !(s > m) }' || [ "$mib" -gt "$max_mib" ] || [ "$kib" -gt "$max_kib" ] ||
     [ "$longest" -gt 1000 ]; then
    echo "FAIL $name: $secs s (max $max_s), $mib MiB (max $max_mib), $kib KiB of output (max $max_kib), longest line $longest"
    fail=1; return
  fi
  echo "ok   $name (exit $rc, $secs s, $mib MiB, $kib KiB of output)"
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
# A second YAML document: an error in a launch config (PyYAML's safe_load raises there), nothing in a
# multi-document Kubernetes manifest that merely runs a launch.
printf 'distributed_type: FSDP\nnum_processes: 8\n---\nnum_processes: 2\n' > two_docs.yaml
check "accelerate config with a second document" "two_docs.yaml:3:1: LL001" two_docs.yaml
mkdir k8s
printf 'apiVersion: v1\nkind: Service\n---\napiVersion: batch/v1\nkind: Job\nspec:\n  command: ["accelerate", "launch", "--num_processes", "8", "train.py"]\n' > k8s/job.yaml
out=$(timeout 60 "$bin" --isolated --format concise k8s 2>&1)
if grep -q LL001 <<<"$out"; then
  echo "FAIL multi-document Kubernetes manifest: $out"; fail=1
else
  echo "ok   multi-document Kubernetes manifest"
fi
check "missing file" LL002 does-not-exist.yaml
printf '\xEF\xBB\xBE' > toml_ub1.toml; check "toml++ UB input EF BB BE" - toml_ub1.toml
printf 'a = 1 \xc2\xa7\n[parallelism]\n' > toml_ub2.toml; check "toml++ UB input section sign" - toml_ub2.toml
printf '[\x01' > toml_ub3.toml; check "toml++ assertion input" - toml_ub3.toml

# Bounds that grow with the input, not faster (docs/limits.md).
python3 - <<'PY'
with open("alias_bytes.yaml", "w") as f:
    f.write("distributed_type: FSDP\nbig: &big " + "x" * (1 << 20) + "\ncopies:\n" + "- *big\n" * 2000)
with open("doubling.py", "w") as f:
    f.write("from transformers import TrainingArguments\na0 = ['" + "x" * 100 + "']\n")
    for i in range(1, 61):
        f.write(f"a{i} = [a{i-1}, a{i-1}]\n")
    f.write("args = TrainingArguments(output_dir='o', fsdp=a60, fsdp_config=a60)\n")
with open("wide.sh", "w") as f:
    f.write("accelerate launch --num_processes 8 train.py " + " ".join(f"--a{i} {i}" for i in range(32768)) + "\n")
with open("wide_error.py", "w") as f:
    f.write("from transformers import TrainingArguments\nx = [" + "1, $ " * 64000 + "]\n")
with open("flow_keys.yaml", "w") as f:
    f.write("{compute_environment: LOCAL_MACHINE, distributed_type: FSDP, num_processes: 8, " +
            ", ".join(f"fsdp_bogus_{i}: {i}" for i in range(8192)) + "}\n")
PY
check_bounded "1 MB scalar aliased 2,000 times" LL001 20 400 64 alias_bytes.yaml
check_bounded "Python names doubling 60 times" - 20 400 64 doubling.py
check_bounded "64k launcher arguments on one line" - 20 400 1024 wide.sh
check_bounded "Python syntax errors on one 320 KB line" LL001 20 400 1024 wide_error.py
check_bounded "8k unknown keys in one flow mapping" "not shown" 20 400 512 flow_keys.yaml

# The shell reader: deep lists, exponential variable expansion, exports copied into every launch, long pipelines.
python3 - <<'PY'
open("chain.sh", "w").write("accelerate launch --num_processes 2 train.py\ntrue" + " && a" * 20000 + "\n")
open("doubling.sh", "w").write("A=x\n" + "A=$A$A\n" * 40 + "accelerate launch --config_file $A train.py\n")
open("exports.sh", "w").write("".join(f"export A{i}={'x' * 50}\n" for i in range(5000)) + "torchrun t.py\n" * 5000)
open("pipes.sh", "w").write("torchrun x.py\n" + "a | " * 8000 + "b\n")
open("backticks.sh", "w").write("accelerate launch train.py\n" + "`" * 65000 + "\n")
open("ifs.sh", "w").write("accelerate launch train.py\n" + "if " * 66000 + "\n")
open("nested_cd.sh", "w").write("".join(f"cd d{i}\npython t{i}.py\n" for i in range(20000)))
PY
check_bounded "20k && in one list" - 20 400 64 chain.sh
check_bounded "A=\$A\$A forty times" LL001 20 400 64 doubling.sh
check_bounded "5k exports x 5k launches" LL001 20 400 64 exports.sh
check_bounded "8k pipes" - 20 400 64 pipes.sh
check_bounded "65k backticks" - 20 400 64 backticks.sh
check_bounded "66k if" - 20 400 64 ifs.sh
check_bounded "20k nested cd, a launch after each" - 20 400 64 nested_cd.sh
# Each launch sees the files the script wrote before it: one list per script, not a copy per launch (20k heredocs,
# each script run after it is written, held 200 M names). A `case` of 20k arms, a launch in each.
python3 - <<'PY'
open("heredocs.sh", "w").write("".join(f"cat > s{i}.py <<EOF\nprint({i})\nEOF\npython s{i}.py --output_dir o{i}\n"
                                       for i in range(20000)))
open("heredocs_bash.sh", "w").write("".join(f"cat > s{i}.sh <<EOF\ntorchrun --nproc_per_node 8 t.py\nEOF\nbash s{i}.sh\n"
                                            for i in range(20000)))
open("case.sh", "w").write('case "$1" in\n' + "".join(
    f"  a{i}) accelerate launch --num_processes {i % 8 + 1} train.py --output_dir o{i} ;;\n" for i in range(20000)) +
    "esac\n")
open("long_cd.sh", "w").write("cd " + "d" * 4000 + "\n" + "python t.py\n" * 100000)
PY
check_bounded "20k heredocs, each written script run" - 20 400 64 heredocs.sh
check_bounded "20k heredocs, each written script run by bash" - 20 400 64 heredocs_bash.sh
check_bounded "a case of 20k arms, a launch in each" - 20 400 64 case.sh
check_bounded "a 4,000-byte cd, then 100k launches" LL001 20 400 64 long_cd.sh
# YML003 in a mapping with a merge key: each key is looked up among its siblings' values by binary search (a look at
# every sibling made 100k keys 10^10 steps).
python3 -c "print('distributed_type: FSDP\nbase: &b {x: 1}\nm:\n  <<: *b\n' + ''.join(f'  k{i}: {i}\n' for i in range(100000)) + '  k1: 2')" > merge_keys.yaml
check_bounded "100k keys beside a merge key" YML003 20 400 64 merge_keys.yaml

# HF015 reads a field's default from the script's own dataclass: one pass over the lines and the classes, however
# many classes hold a field of that name (80,000 here: about 40 s of CPU when it was quadratic).
python3 -c "
lines = ['from dataclasses import dataclass', 'from transformers import HfArgumentParser, TrainingArguments',
         '@dataclass', 'class A:', '    fp16: bool = True', '    bf16: bool = True']
for i in range(80000):
    lines += ['class C%d:' % i, '    fp16: bool = False']
lines += ['(args,) = HfArgumentParser(A).parse_args_into_dataclasses()',
          't = TrainingArguments(output_dir=\"o\", fp16=args.fp16, bf16=args.bf16)']
print(chr(10).join(lines))" > many_dataclass_fields.py
check_bounded "80k classes with a field HF015 reads" HF015 20 400 64 many_dataclass_fields.py

# [[launch]] entries of the project config: each command is parsed once, on its own (a copy of the whole config per
# entry made 2,000 entries take about 24 s).
mkdir declared && (cd declared && printf 'distributed_type: FSDP\nnum_processes: 8\n' > fsdp.yaml && : > train.py &&
  python3 -c "
print(''.join(f'[[launch]]\nname = \"l{i}\"\ncommand = \"accelerate launch --config_file fsdp.yaml --num_processes {i % 8 + 1} train.py --output_dir o{i}\"\n' for i in range(20000)))" > launchlint.toml)
out=$(cd declared && timeout 120 python3 -c "
import resource, subprocess, sys
p = subprocess.run([sys.argv[1], '--no-cache', '--format', 'concise', '.'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
u = resource.getrusage(resource.RUSAGE_CHILDREN)
print(p.returncode, round(u.ru_utime + u.ru_stime, 1))" "$bin"); read -r rc secs <<<"$out"
max_s=30; [ -n "${LAUNCHLINT_SANITIZED:-}" ] && max_s=90
if [ "$rc" -le 1 ] 2>/dev/null && awk -v s="$secs" -v m="$max_s" 'BEGIN { exit !(s <= m) }'; then
  echo "ok   20,000 [[launch]] entries ($secs s)"
else echo "FAIL 20,000 [[launch]] entries: exit $rc, $secs s (max $max_s)"; fail=1; fi
rm -rf declared

# A launch file that is a FIFO, a device or a folder: named as what it is, never opened or waited on.
mkdir nonregular && (cd nonregular && mkfifo cfg.yaml && mkdir ds.json && : > train.py &&
  printf 'accelerate launch --config_file cfg.yaml train.py --deepspeed ds.json\ntorchrun /dev/zero\n' > run.sh)
out=$(cd nonregular && timeout 20 "$bin" --no-cache --isolated --format concise run.sh 2>&1); rc=$?
if [ $rc -eq 0 ] && grep -q "run.sh:1:33: LL006 \[info\] The accelerate config \`cfg.yaml\` of this launch is a FIFO (named pipe): not read" <<<"$out" &&
   grep -q "run.sh:1:63: LL006 \[info\] The DeepSpeed config \`ds.json\` of this launch is a folder, not a file" <<<"$out" &&
   grep -q "run.sh:2:10: LL006 \[info\] The training script \`/dev/zero\` of this launch is a device: not read" <<<"$out"; then
  echo "ok   launch files that are a FIFO, a folder, a device"
else echo "FAIL launch files that are a FIFO, a folder, a device: exit $rc: $out"; fail=1; fi
rm -rf nonregular

# A folder the walk cannot list (here: its path is past PATH_MAX) is LL002 at the folder, not skipped in silence.
mkdir deep && (cd deep && python3 -c "
import os
cur = os.open('.', os.O_RDONLY)
for i in range(2100):
    os.mkdir('d', dir_fd=cur); n = os.open('d', os.O_RDONLY, dir_fd=cur); os.close(cur); cur = n
fd = os.open('acc.yaml', os.O_WRONLY | os.O_CREAT, dir_fd=cur); os.write(fd, b'distributed_type: FSDP\\n'); os.close(fd)
")
out=$(cd deep && timeout 60 "$bin" --no-cache --isolated --format concise . 2>&1); rc=$?
if [ $rc -eq 1 ] && grep -q "LL002 \[error\] Cannot list this folder (File name too long): its files are not checked" <<<"$out"; then
  echo "ok   a folder past PATH_MAX is reported"
else echo "FAIL a folder past PATH_MAX: exit $rc: $(tail -c 300 <<<"$out")"; fail=1; fi
rm -rf deep 2>/dev/null || python3 -c "import shutil; shutil.rmtree('deep')"

# Only regular files are read: a FIFO is not waited on, a device not read, as a path or as --config.
mkfifo fifo.yaml
check_bounded "FIFO named x.yaml" LL002 10 200 64 fifo.yaml
check_bounded "a character device" LL002 10 200 64 /dev/zero
out=$(timeout 20 "$bin" --config fifo.yaml empty.yaml 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "FIFO" <<<"$out"; then echo "ok   --config FIFO (exit 2)"; else echo "FAIL --config FIFO: exit $rc: $out"; fail=1; fi
out=$(timeout 20 "$bin" --config /dev/zero empty.yaml 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "device" <<<"$out"; then echo "ok   --config /dev/zero (exit 2)"; else echo "FAIL --config /dev/zero: exit $rc: $out"; fail=1; fi
out=$(timeout 20 "$bin" --config dir.yaml empty.yaml 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "directory" <<<"$out"; then echo "ok   --config directory (exit 2)"; else echo "FAIL --config directory: exit $rc: $out"; fail=1; fi
exit $fail
