#!/usr/bin/env bash
# Huge files (docs/limits.md "Huge files"): peak memory above a run on a tiny file stays within 3x the file for a
# big axolotl config (its datasets list is left out), a big tokenizer.json and a big dataset YAML (read shallow,
# never in full), a big data TOML in a folder (not parsed) or named (checked in pieces), and a big Python file (read
# in pieces, keeping only the calls something reads); the axolotl config's findings are those of the same config
# with a short datasets list. The files are generated here.
# Usage: huge_file_memory.sh path/to/launchlint
set -uo pipefail
bin=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0
# Under AddressSanitizer shadow memory roughly triples the footprint (its quarantine of freed blocks is kept small:
# a file read in pieces frees each piece's tree).
factor=3
if [ -n "${LAUNCHLINT_SANITIZED:-}" ]; then
  factor=9
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=16"
fi

REPO=$repo python3 - <<'PY'
import json, os, random, sys
r = random.Random(12)
header = """base_model: meta-llama/Llama-3.1-8B
load_in_4bit: true
adapter: qlora
lora_r: 16
sequence_len: 4096
micro_batch_size: 2
gradient_accumulation_steps: 4
num_epochs: 1
wandb_mode: off
fsdp:
  - full_shard
  - auto_wrap
fsdp_config:
  fsdp_offload_params: true
  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer
datasets:
"""
def rows(n):
    return "".join(f"  - path: org/dataset-{r.randrange(10**6)}\n    type: {r.choice(('alpaca', 'sharegpt'))}\n"
                   f"    split: train[:{r.randrange(1, 100)}%]\n" for _ in range(n))
os.makedirs("small", exist_ok=True)
os.makedirs("huge", exist_ok=True)
os.makedirs("repeated", exist_ok=True)
with open("small/axolotl.yaml", "w") as f:
    f.write(header + rows(2))
with open("huge/axolotl.yaml", "w") as f:
    f.write(header)
    size = len(header)
    while size < 32 * 1024 * 1024:
        chunk = rows(2000)
        f.write(chunk)
        size += len(chunk)
# A repeated key in the last dataset of a big config: the list is read in full, and YML003 reports it.
with open("repeated/axolotl.yaml", "w") as f:
    text = header + rows(20000) + "  - path: org/a\n    path: org/b\n"
    f.write(text)
# Not launch configs: a dataset list and a tokenizer.
with open("records.yaml", "w") as f:
    size = 0
    while size < 32 * 1024 * 1024:
        chunk = "".join(f"- id: {r.randrange(10**9)}\n  text: some words {r.randrange(10**6)}\n  tags: [a, b]\n"
                        for _ in range(2000))
        f.write(chunk)
        size += len(chunk)
os.makedirs("data", exist_ok=True)
with open("data/rows.toml", "w") as f:
    size, i = 0, 0
    while size < 16 * 1024 * 1024:
        chunk = "".join(f'[[rows]]\nid = {i * 1000 + k}\nname = "n{k}"\n' for k in range(1000))
        f.write(chunk)
        size += len(chunk)
        i += 1
sys.path.insert(0, os.path.join(os.environ["REPO"], "bench"))
import gen  # the huge workload's model_zoo.py (bench/gen.py)
rz = random.Random("huge")
py = gen.Py(rz)
parts, size = [], 0
while size < 4 * 1024 * 1024:
    chunk = py.module(40, ["from transformers import TrainingArguments", ""] if not parts else ())
    parts.append(chunk)
    size += len(chunk)
with open("model_zoo.py", "w") as f:
    f.write("".join(parts))
vocab = {f"tok{i}": i for i in range(600000)}
merges = [f"t{i} k{i}" for i in range(600000)]
with open("tokenizer.json", "w") as f:
    json.dump({"version": "1.0", "truncation": None, "added_tokens": [{"id": 0, "content": "<s>"}],
               "model": {"type": "BPE", "dropout": None, "vocab": vocab, "merges": merges}}, f, indent=2)
PY
[ -s huge/axolotl.yaml ] && [ -s tokenizer.json ] && [ -s model_zoo.py ] || { echo "FAIL: could not generate the files"; exit 1; }

# dir, what to name: runs launchlint there (one thread, so that no second heap arena adds noise); sets rc, kib
# (its peak RSS) and out.
measure() {
  local res
  res=$(cd "$1" && python3 - "$bin" "$2" <<'PY'
import resource, subprocess, sys
p = subprocess.run([sys.argv[1], "--isolated", "--no-cache", "--jobs", "1", "--format", "concise", sys.argv[2]],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.stdout.buffer.write(p.stdout)
PY
)
  read -r rc kib <<<"$(head -1 <<<"$res")"
  out=$(tail -n +2 <<<"$res")
}

# The floor: a run on a tiny script (the program, its libraries and rule table), measured on this machine and
# build, so that the bounds below are on what a file adds, whatever the build (the sanitizer's runtime) or the
# machine. The largest of three runs.
mkdir -p tiny && printf 'import torch\nfrom transformers import TrainingArguments\n' > tiny/train.py
base_kib=0
for _ in 1 2 3; do
  measure tiny train.py
  [ "$kib" -gt "$base_kib" ] && base_kib=$kib
done
echo "     floor: peak RSS $((base_kib / 1024)) MiB on a tiny script"

# name, expected exit code, file[, what to name[, factor]]: runs launchlint in the file's folder on the file (or on
# what to name there), bounds its peak RSS by the floor + factor x the file. Memory is deterministic for one
# thread, but a machine under load can still page or delay a run: an RSS over the bound is measured once more, and
# fails only if it is over both times (a regression of the kind this test is for costs tens of MiB every time).
run_bounded() {
  local name=$1 expect=$2 file=$3 target=${4:-} f=${5:-$factor}
  local dir bytes limit
  dir=$(dirname "$file")
  bytes=$(stat -c %s "$file")
  limit=$((base_kib + bytes * f / 1024))
  measure "$dir" "${target:-$(basename "$file")}"
  if [ "$rc" = "$expect" ] && [ "$kib" -gt "$limit" ]; then
    echo "     $name: peak RSS $((kib / 1024)) MiB over the bound $((limit / 1024)) MiB; measuring again"
    measure "$dir" "${target:-$(basename "$file")}"
  fi
  if [ "$rc" != "$expect" ]; then
    echo "FAIL $name: exit $rc (expected $expect)"; echo "$out" | head -5; fail=1
  elif [ "$kib" -gt "$limit" ]; then
    echo "FAIL $name: peak RSS $((kib / 1024)) MiB, more than $((base_kib / 1024)) MiB + ${f}x the file" \
      "($((bytes / 1048576)) MiB)"; fail=1
  else
    echo "ok   $name: peak RSS $((kib / 1024)) MiB for $((bytes / 1048576)) MiB (bound $((limit / 1024)) MiB)"
  fi
}

run_bounded "32 MB axolotl config" 1 huge/axolotl.yaml
huge_out=$out
small_out=$(cd small && "$bin" --isolated --no-cache --format concise axolotl.yaml 2>&1)
if [ "$huge_out" != "$small_out" ]; then
  echo "FAIL the big axolotl config's findings differ from the small one's:"
  diff <(echo "$small_out") <(echo "$huge_out") | head -10
  fail=1
elif [ -z "$huge_out" ]; then
  echo "FAIL the axolotl config gave no findings (expected at least the implicit boolean)"; fail=1
fi

no_findings() {  # file: the output of the last run has no finding
  if grep -Eq ": [A-Z]+[0-9]+ \[" <<<"$out" || ! grep -q "All checks passed" <<<"$out"; then
    echo "FAIL $1: unexpected output"; echo "$out" | head -3; fail=1
  fi
}

run_bounded "32 MB dataset YAML (not a launch config)" 0 records.yaml
no_findings records.yaml
run_bounded "tokenizer.json (not a launch config)" 0 tokenizer.json
no_findings tokenizer.json
# A big TOML in a folder (not named) that cannot be a torchtitan config is not parsed.
run_bounded "16 MB TOML of data (not a launch config)" 0 data/rows.toml .
no_findings data/rows.toml
# Named, it is checked by toml++ in pieces (its syntax errors would be reported); no tree is kept.
run_bounded "16 MB TOML of data, named" 0 data/rows.toml rows.toml
if ! grep -q "All checks passed" <<<"$out"; then echo "FAIL named data TOML: unexpected output"; echo "$out" | head -3; fail=1; fi
# A big Python file is read a few top-level statements at a time, and keeps only the calls something reads (every
# call with its arguments was 8x the file for bench/gen.py's model_zoo.py).
run_bounded "4 MB Python file (bench's model_zoo.py)" 0 model_zoo.py

# The repeated key in a dataset is still found (the list is then read in full; memory is not bounded here).
rep_out=$(cd repeated && "$bin" --isolated --no-cache --format concise axolotl.yaml 2>&1)
rep_line=$(awk 'END { print NR }' repeated/axolotl.yaml)
if ! grep -q "axolotl.yaml:$rep_line:[0-9]*: .*YML003" <<<"$rep_out"; then
  echo "FAIL repeated key in a dataset: no YML003 at line $rep_line"; echo "$rep_out" | head -5; fail=1
else
  echo "ok   repeated key in a dataset of a big config: YML003 at line $rep_line"
fi
exit $fail
