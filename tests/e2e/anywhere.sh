#!/usr/bin/env bash
# Same answer from anywhere: a project linted from its root, its parent folder and a subfolder gives the same
# findings (paths compared as absolute paths). Files are bound against what the launch implies (the script's
# folder, the project root, `cd "$(dirname "$0")/.."`), never launchlint's working directory; a referenced file
# that is not found is an LL006 info at the reference. An explicit file is linted within its project.
set -uo pipefail
bin=$(realpath "$1")
repo=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p="$tmp/parent/proj"
mkdir -p "$p/scripts" "$p/configs" "$p/jobs/nested"
(cd "$p" && git init -q)
cp "$repo/examples/7b-lora-shard-grad-op/fsdp.yaml" "$p/configs/fsdp.yaml"
printf 'from transformers import HfArgumentParser, TrainingArguments\nparser = HfArgumentParser(TrainingArguments)\n(args,) = parser.parse_args_into_dataclasses()\n' > "$p/train.py"
printf '{\n  "train_batch_size": 32,\n  "train_micro_batch_size_per_gpu": 4,\n  "gradient_accumulation_steps": 2\n}\n' > "$p/configs/ds.json"
# run from the repository root: paths relative to it
printf '#!/usr/bin/env bash\ndeepspeed --num_gpus 8 train.py --deepspeed configs/ds.json\n' > "$p/scripts/deepspeed.sh"
# changes to the project root itself
printf '#!/usr/bin/env bash\ncd "$(dirname "$0")/../.."\naccelerate launch --config_file configs/fsdp.yaml train.py\n' > "$p/jobs/nested/fsdp.sh"
# a CI step's working-directory, and a Makefile recipe that changes folder
mkdir -p "$p/.github/workflows"
cp "$p/configs/fsdp.yaml" "$p/configs/ci-fsdp.yaml" && cp "$p/configs/fsdp.yaml" "$p/configs/mk-fsdp.yaml"
cat > "$p/.github/workflows/train.yml" <<'Y'
on: push
jobs:
  smoke:
    runs-on: ubuntu-latest
    steps:
      - working-directory: jobs
        run: accelerate launch --config_file ../configs/ci-fsdp.yaml ../train.py
Y
printf 'train:\n\tcd jobs && accelerate launch --config_file ../configs/mk-fsdp.yaml ../train.py\n' > "$p/Makefile"
# a file that is nowhere
printf '#!/usr/bin/env bash\naccelerate launch --config_file configs/gone.yaml train.py\n' > "$p/scripts/gone.sh"

findings() {  # findings() DIR ARGS...: "abs-path:line:col CODE message" lines, sorted
  local dir=$1; shift
  (cd "$dir" && "$bin" --format json "$@" | python3 -c '
import json, os, sys
for d in json.load(sys.stdin)["diagnostics"]:
    loc = d["location"] or {"row": 0, "column": 0}
    print("%s:%s:%s %s %s" % (os.path.realpath(d["filename"]), loc["row"], loc["column"], d["code"], d["message"]))
') | sort
}
fail=0
from_root=$(findings "$p" .)
from_parent=$(findings "$tmp/parent" proj)
from_sub=$(findings "$p/jobs/nested" ../..)
for code in DS001 FSDP001 LL006; do
  if grep -q " $code " <<<"$from_root"; then echo "ok   $code found from the project root"; else echo "FAIL $code not found from the root"; fail=1; fi
done
for f in ci-fsdp mk-fsdp; do
  grep -q "configs/$f.yaml:10:27 FSDP001" <<<"$from_root" && echo "ok   $f.yaml bound through its working directory" || { echo "FAIL $f.yaml not bound"; fail=1; }
done
grep -q "scripts/gone.sh:2:.* LL006 .*configs/gone.yaml" <<<"$from_root" && echo "ok   the missing config is an info at its reference" || { echo "FAIL LL006 location"; fail=1; }
if [ "$from_root" = "$from_parent" ]; then echo "ok   identical findings from the parent folder"; else echo "FAIL from the parent folder:"; diff <(echo "$from_root") <(echo "$from_parent"); fail=1; fi
if [ "$from_root" = "$from_sub" ]; then echo "ok   identical findings from a subfolder"; else echo "FAIL from a subfolder:"; diff <(echo "$from_root") <(echo "$from_sub"); fail=1; fi
# An explicit file from elsewhere: its launches are found in its project.
one=$(findings "$p/jobs" ../configs/ds.json)
if grep -q "configs/ds.json:2:23 DS001" <<<"$one" && ! grep -qv "^$p/configs/ds.json:" <<<"$one"; then
  echo "ok   an explicit file from a subfolder: DS001 from the launch that uses it, and only its own findings"
else
  echo "FAIL explicit file:"; echo "$one"; fail=1
fi
# A tree without any root marker (unpacked from an archive: no .git, no pyproject.toml): a script two folders
# below the training script it names is bound through the folders between it and where launchlint runs.
u="$tmp/unpacked"
mkdir -p "$u/bert/bash_script/XTC"
printf 'import argparse\np = argparse.ArgumentParser()\np.add_argument("--local_rank", type=int)\np.parse_args()\n' > "$u/bert/run_glue.py"
printf '#!/usr/bin/env bash\npython -m torch.distributed.launch --nproc_per_node=2 run_glue.py --seed 1\n' > "$u/bert/bash_script/XTC/run.sh"
bare=$(findings "$u" .)
if grep -q "bash_script/XTC/run.sh:2:.* LCH007 " <<<"$bare" && ! grep -q " LL006 " <<<"$bare"; then
  echo "ok   without a root marker, the script is found in a folder above the launch script"
else
  echo "FAIL no root marker:"; echo "$bare"; fail=1
fi
outside=$(findings "$u/bert/bash_script" XTC)
if grep -q " LL006 .*run_glue.py" <<<"$outside"; then
  echo "ok   the walk stops at the folder being linted"
else
  echo "FAIL walk above the folder being linted:"; echo "$outside"; fail=1
fi
# The same tree linted by its absolute path from folders outside it, and by a relative path from its parent: the
# folder being linted bounds the walk, not the working directory, and a file found by the walk is the run's own
# document (spelled as the linted path is), so its findings are neither lost nor reported twice.
cp "$p/configs/fsdp.yaml" "$u/fsdp.yaml"
printf '#!/usr/bin/env bash
accelerate launch --config_file fsdp.yaml bert/run_glue.py
' > "$u/bert/bash_script/launch.sh"
# Messages name files as the linted path spells them: compared without that spelling.
unspelled() { sed -e "s|$u/||g" -e 's|`unpacked/|`|g'; }
bare=$(findings "$u" . | unspelled)
for where in / "$repo" "$tmp"; do
  got=$(findings "$where" "$u" | unspelled)
  if [ "$got" = "$bare" ]; then echo "ok   identical findings for the absolute path from $where"; else
    echo "FAIL absolute path from $where:"; diff <(echo "$bare") <(echo "$got"); fail=1; fi
done
got=$(findings "$tmp" unpacked | unspelled)
if [ "$got" = "$bare" ]; then echo "ok   identical findings for a relative path from the parent folder"; else
  echo "FAIL relative path from the parent folder:"; diff <(echo "$bare") <(echo "$got"); fail=1; fi
if [ "$(grep -c "^fsdp.yaml:10:27 FSDP001" <<<"$bare")" = 1 ]; then
  echo "ok   the config two folders above the launch script is bound once"
else
  echo "FAIL config not bound once:"; echo "$bare"; fail=1
fi
exit $fail
