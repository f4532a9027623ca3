#!/usr/bin/env bash
# The project boundary (SECURITY.md): a launch that names a file outside the linted roots and their repository
# gets an info finding naming it; the file is never read or quoted, unless --allow-outside names it.
# Usage: project_boundary.sh path/to/launchlint
set -uo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0
mkdir -p secret repo/sub
printf 'api_key: hunter2\ndistributed_type: FSDP\nnum_processes: 2\n' > secret/credentials.yaml
printf 'accelerate launch --config_file ../secret/credentials.yaml train.py\n' > repo/launch.sh
printf 'distributed_type: FSDP\nnum_processes: 2\nmachine_rank: 0\n' > repo/inside.yaml
printf 'accelerate launch --config_file ../inside.yaml train.py\n' > repo/sub/launch.sh
ln -s ../secret/credentials.yaml repo/link.yaml
printf 'accelerate launch --config_file link.yaml train.py\n' > repo/via_link.sh
git -C repo init -q .

out=$(cd repo && "$bin" --isolated --format concise . 2>&1)
if grep -q hunter2 <<<"$out"; then echo "FAIL a file outside the project was quoted"; fail=1; else echo "ok   nothing outside is quoted"; fi
if grep -q "LL002 \[info\].*secret/credentials.yaml.*outside the project" <<<"$out"; then echo "ok   info finding names the path"
else echo "FAIL no info finding naming the outside file"; echo "$out"; fail=1; fi
[ "$(grep -c 'outside the project' <<<"$out")" -ge 1 ] || fail=1
# Linting only sub/: the repository holding it is the boundary, so ../inside.yaml is read.
out=$(cd repo && "$bin" --isolated --format concise sub 2>&1)
if grep -q "outside the project" <<<"$out"; then echo "FAIL a file in the same repository was refused"; echo "$out"; fail=1
else echo "ok   the repository holding the linted folder is inside"; fi
# Allowed explicitly: read.
out=$(cd repo && "$bin" --isolated --format concise --allow-outside ../secret launch.sh 2>&1)
if grep -q "outside the project" <<<"$out"; then echo "FAIL --allow-outside did not allow"; fail=1; else echo "ok   --allow-outside reads it"; fi
# Allowed in the project config: `allow-outside` paths are relative to the config file, wherever launchlint runs.
printf 'allow-outside = ["../elsewhere"]\n' > repo/launchlint.toml
out=$(cd repo/sub && "$bin" --format concise .. 2>&1)
if grep -q "LL002 \[info\].*outside the project" <<<"$out"; then echo "ok   allow-outside of another folder does not allow"
else echo "FAIL allow-outside = [\"../elsewhere\"] allowed ../secret"; echo "$out"; fail=1; fi
printf 'allow-outside = ["../secret"]\n' > repo/launchlint.toml
out=$(cd repo/sub && "$bin" --format concise .. 2>&1)
if grep -q "outside the project" <<<"$out"; then echo "FAIL allow-outside in launchlint.toml did not allow"; echo "$out"; fail=1
else echo "ok   allow-outside in launchlint.toml reads it (relative to the config file)"; fi
printf 'allow-outside = "../secret"\n' > repo/launchlint.toml
out=$(cd repo && "$bin" --format concise launch.sh 2>&1); rc=$?
if [ $rc -eq 2 ] && grep -q "launchlint.toml:1:.*expected a list of strings" <<<"$out"; then echo "ok   allow-outside must be a list"
else echo "FAIL allow-outside as a string: exit $rc"; echo "$out"; fail=1; fi
rm repo/launchlint.toml
# A local model folder outside the project: its config.json is not read for the memory estimate, unless allowed.
mkdir -p models/m
printf '{"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336, "vocab_size": 128256}\n' > models/m/config.json
printf 'from transformers import AutoModelForCausalLM, TrainingArguments\nmodel = AutoModelForCausalLM.from_pretrained("%s")\nargs = TrainingArguments(output_dir="o", fsdp="full_shard auto_wrap")\n' "$tmp/models/m" > repo/model_train.py
out=$(cd repo && "$bin" --isolated explain --memory model_train.py 2>&1)
if grep -q "models/m/config.json is outside the project: not read" <<<"$out"; then echo "ok   a model's config.json outside the project is not read"
else echo "FAIL a model config.json outside the project was read"; echo "$out"; fail=1; fi
out=$(cd repo && "$bin" --isolated explain --memory --allow-outside "$tmp/models" model_train.py 2>&1)
if grep -q "model geometry: .*models/m/config.json" <<<"$out"; then echo "ok   --allow-outside reads a model's config.json"
else echo "FAIL --allow-outside did not read the model's config.json"; echo "$out"; fail=1; fi
exit $fail
