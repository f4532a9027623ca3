#!/usr/bin/env bash
# The command line never fails silently: every misuse exits 2 with a message that says what is wrong (and the
# closest real flag, code, command or key), and runs that check nothing say so.
set -uo pipefail
bin=$(realpath "$1")
repo=$(pwd)
ex="$repo/examples/7b-lora-shard-grad-op"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail=0
# expect RC PATTERN CMD...: exit status RC and PATTERN (grep -E) in stdout+stderr.
expect() {
  local want=$1 pattern=$2
  shift 2
  local out rc
  out=$("$@" 2>&1 </dev/null); rc=$?
  if [ "$rc" -eq "$want" ] && grep -qE -- "$pattern" <<<"$out"; then
    echo "ok   [$rc] ${*:2}"
  else
    echo "FAIL [$rc, want $want /$pattern/] ${*:2}"; echo "$out" | head -5; fail=1
  fi
}
L=("$bin" --color never)

# flags, commands, values
expect 2 "unknown option '--selct' \(did you mean '--select'\?\)" "${L[@]}" --selct FSDP001 "$ex"
expect 2 "unknown option '--formt'.*'--format'" "${L[@]}" --formt=json "$ex"
expect 2 "did you mean the command 'explain'" "${L[@]}" explian "$ex"
expect 2 "unknown format 'sarf'.*did you mean 'sarif'" "${L[@]}" --format sarf "$ex"
expect 2 "--fail-on must be one of error, warning, info, never, not 'bogus'" "${L[@]}" --fail-on bogus "$ex"
expect 2 "--color must be one of" "${L[@]}" --color sometimes "$ex"
expect 2 "--jobs" "${L[@]}" --jobs many "$ex"
# rule codes, case-insensitive, with suggestions
expect 2 "--severity: unknown rule code or prefix 'FSDP999'" "${L[@]}" --severity FSDP999=error "$ex"
expect 2 "--severity level must be one of error, warning, info, not 'eror'.*'error'" "${L[@]}" --severity FSDP001=eror "$ex"
expect 2 "--severity needs CODE=LEVEL" "${L[@]}" --severity FSDP001 "$ex"
expect 2 "--select: unknown rule code or prefix 'NOPE'" "${L[@]}" --select NOPE "$ex"
# A GPU memory size needs its unit: 80 alone would be 80 bytes.
expect 2 "--gpu-memory needs the memory of one GPU with its unit, such as 80GiB \(at least 1 GiB, at most 64 TiB\), not '80'" "${L[@]}" --gpu-memory 80 "$ex"
mkdir -p ciw/.github/workflows && printf 'on: push\njobs:\n  t:\n    runs-on: x\n    steps:\n      - run: accelerate launch --num_processes 1 --use_fsdp train.py\n' > ciw/.github/workflows/ci.yml
out=$(cd ciw && "$bin" --no-cache --color never .github/workflows/ci.yml 2>&1)
if grep -q "FSDP012" <<<"$out" && ! grep -q "is not a launch file" <<<"$out"; then echo "ok   a named CI workflow with findings is not called unknown"
else echo "FAIL a named CI workflow with findings"; echo "$out" | head -3; fail=1; fi
expect 2 "--output needs a file name, not an empty one" "${L[@]}" -o '' "$ex"
expect 2 "--gpu-memory needs .* not 'infGiB'" "${L[@]}" --gpu-memory infGiB "$ex"
expect 2 "--gpu-memory needs .* not 'nanGiB'" "${L[@]}" --gpu-memory nanGiB "$ex"
expect 2 "--gpu-memory needs .* not '1e300GiB'" "${L[@]}" --gpu-memory 1e300GiB "$ex"
expect 2 "--gpu-memory needs .* not '512MiB'" "${L[@]}" --gpu-memory 512MiB "$ex"
expect 1 "FSDP001" "${L[@]}" --gpu-memory 80GB "$ex"
expect 2 "--ignore: unknown rule code or prefix 'FSDP0O1' \(did you mean 'FSDP001'\?\)" "${L[@]}" --ignore FSDP0O1 "$ex"
expect 2 "--extend-select: unknown" "${L[@]}" --extend-select XYZ "$ex"
expect 1 "FSDP001" "${L[@]}" --select fsdp001 "$ex"
expect 0 "All checks passed" "${L[@]}" --ignore fsdp "$ex"
# stdin, config
expect 2 "standard input needs a name.*--stdin-filename" "${L[@]}" -
expect 2 "'-' reads standard input: give no other paths" "${L[@]}" - --stdin-filename a.yaml "$ex"
expect 2 "--stdin-filename names standard input: add '-'" "${L[@]}" --stdin-filename a.yaml "$ex"
expect 2 "--isolated ignores every configuration file" "${L[@]}" --isolated --config x.toml "$ex"
expect 2 "x.toml: cannot read configuration file" "${L[@]}" --config x.toml "$ex"
# explain and rule
expect 2 "explain: no such file or directory: nope" "${L[@]}" explain nope
expect 2 "explain needs PATHS" "${L[@]}" explain
expect 2 "explain writes text or json, not sarif" "${L[@]}" explain --format sarif "$ex"
# `explain FILE` binds the launch as a run over its project does: a config named from the project root is found
# from a script in a subfolder, and only the launches the file takes part in are shown.
mkdir -p xproj/sub xproj/conf
printf '[project]\nname = "p"\n' > xproj/pyproject.toml
printf 'compute_environment: LOCAL_MACHINE\ndistributed_type: FSDP\nnum_processes: 2\n' > xproj/conf/fsdp.yaml
printf 'accelerate launch --config_file conf/fsdp.yaml train.py\n' > xproj/sub/run.sh
printf 'import torch\n' > xproj/train.py
printf 'python train.py\n' > xproj/other.sh
out=$(cd xproj && "$bin" explain --color never sub/run.sh 2>&1)
if grep -q "files: sub/run.sh conf/fsdp.yaml train.py" <<<"$out" && ! grep -q "other.sh" <<<"$out"; then
  echo "ok   explain FILE binds as its project does"
else echo "FAIL explain FILE in a subfolder"; echo "$out" | head -5; fail=1; fi
expect 2 "unknown rule 'FSDP01' \(did you mean 'FSDP001'\?\)" "${L[@]}" rule FSDP01
expect 2 "rule needs a CODE" "${L[@]}" rule
expect 2 "rule writes text or json, not sarif" "${L[@]}" rule --all --format sarif
expect 0 "^# FSDP001 " "${L[@]}" rule fsdp001
expect 0 "^# FSDP001 " "${L[@]}" rule shard-grad-op-without-activation-checkpointing
expect 0 '"code": "LL005"' "${L[@]}" rule --all --format json
expect 0 '"code": "FSDP001"' "${L[@]}" rule FSDP001 --format json
# --statistics honours --format
expect 2 "--statistics writes text or json, not junit" "${L[@]}" --statistics --format junit "$ex"
expect 1 '"count": 1' "${L[@]}" --statistics --format json "$ex"
expect 1 "^1	FSDP001	shard-grad-op" "${L[@]}" --statistics "$ex"
# help and version answer 0
expect 0 "Usage: launchlint" "${L[@]}" --help
expect 0 "^launchlint [0-9]+\.[0-9]+\.[0-9]+$" "${L[@]}" --version

# configuration files: unknown codes, keys, values, with their position
mkdir cfg && cp "$ex"/* cfg/
printf 'select = ["NOPE"]\n' > cfg/launchlint.toml
expect 2 "launchlint.toml:1:11: unknown rule code or prefix 'NOPE'" "${L[@]}" cfg
printf 'selct = ["ALL"]\n' > cfg/launchlint.toml
expect 2 "launchlint.toml:1:1: unknown configuration key 'selct' \(did you mean 'select'\?\)" "${L[@]}" cfg
printf 'gpu-memory = 80\n' > cfg/launchlint.toml
expect 2 "launchlint.toml:1:14: gpu-memory must be the memory of one GPU with its unit, such as \"80GiB\" \(at least 1 GiB, at most 64 TiB\), not 80" "${L[@]}" cfg
printf 'gpu-memory = "eighty"\n' > cfg/launchlint.toml
expect 2 "launchlint.toml:1:14: gpu-memory must be .*not \"eighty\"" "${L[@]}" cfg
printf 'gpu-memory = "80GiB"\n' > cfg/launchlint.toml
expect 1 "FSDP001" "${L[@]}" cfg
printf 'gpu-memory = "infGiB"\n' > cfg/launchlint.toml
expect 2 "launchlint.toml:1:14: gpu-memory must be .*not \"infGiB\"" "${L[@]}" cfg
# cache-dir = "." in a config file: the project is not tagged with the cache's .gitignore of *, so the next run
# still sees it
printf 'cache-dir = "."\n' > cfg/launchlint.toml
expect 1 "FSDP001" "$bin" --color never cfg
expect 1 "FSDP001" "$bin" --color never cfg
[ ! -e cfg/.gitignore ] && echo "ok   cache-dir = \".\": no .gitignore written" || { echo "FAIL cache-dir . wrote a .gitignore"; fail=1; }
# --cache-dir naming a folder that already holds files (the project itself) does not tag it with a .gitignore of *
mkdir own && cp "$ex"/* own/
expect 1 "FSDP001" "$bin" --color never --cache-dir own own
expect 1 "FSDP001" "$bin" --color never --cache-dir own own
[ ! -e own/.gitignore ] && echo "ok   --cache-dir on a folder with files: no .gitignore written" || { echo "FAIL --cache-dir wrote own/.gitignore"; fail=1; }
printf 'fail-on = "bogus"\n' > cfg/launchlint.toml
expect 2 "launchlint.toml:1:11: fail-on must be" "${L[@]}" cfg
printf '[severity]\nFSDP999 = "error"\n' > cfg/launchlint.toml
expect 2 "launchlint.toml:2:1: unknown rule code or prefix 'FSDP999'" "${L[@]}" cfg
printf '[per-file-ignores]\n"*.yaml" = ["FSDP0001"]\n' > cfg/launchlint.toml
expect 2 "launchlint.toml:2:13: unknown rule code or prefix 'FSDP0001'" "${L[@]}" cfg
printf '[[launch]]\nscirpt = "train.py"\n' > cfg/launchlint.toml
expect 2 "unknown key 'scirpt' in \[\[launch\]\] \(did you mean 'script'\?\)" "${L[@]}" cfg
# the README's example configuration is accepted as written
sed -n '/^## Configuration/,/^## Suppressions/p' "$repo/README.md" | sed -n '/^```toml$/,/^```$/p' | sed '1d;$d' \
  > cfg/launchlint.toml
grep -q '^select' cfg/launchlint.toml || { echo "FAIL the README's example config was not found"; fail=1; }
expect 0 "" "${L[@]}" cfg
rm cfg/launchlint.toml

# nothing to check is said, not silent
mkdir empty
expect 0 "warning: no launch file found in empty" "${L[@]}" empty
echo "just notes" > notes.txt
expect 0 "info: notes.txt is not a launch file launchlint knows" "${L[@]}" notes.txt
printf 'name: my-service\nreplicas: 3\n' > service.yaml
expect 0 "info: service.yaml is not a launch file" "${L[@]}" service.yaml

# default excludes and extend-exclude
for d in venv .venv build node_modules site-packages __pycache__ lib/python3.11/site-packages; do
  mkdir -p "proj/$d" && cp "$ex/fsdp.yaml" "proj/$d/"
done
expect 0 "warning: no launch file found" "${L[@]}" proj
mkdir -p proj/vendored && cp "$ex/fsdp.yaml" proj/vendored/
expect 1 "proj/vendored/fsdp.yaml" "${L[@]}" proj
printf 'extend-exclude = ["vendored"]\n' > proj/launchlint.toml
expect 0 "no launch file found" "${L[@]}" proj
printf 'exclude = []\n' > proj/launchlint.toml
expect 1 "proj/build/fsdp.yaml" "${L[@]}" proj

# colour from the environment
out=$(FORCE_COLOR=1 "$bin" "$ex" 2>&1); grep -q $'\e\[' <<<"$out" && echo "ok   FORCE_COLOR=1 colours" || { echo "FAIL FORCE_COLOR"; fail=1; }
out=$(CLICOLOR_FORCE=1 "$bin" "$ex" 2>&1); grep -q $'\e\[' <<<"$out" && echo "ok   CLICOLOR_FORCE=1 colours" || { echo "FAIL CLICOLOR_FORCE"; fail=1; }
out=$(FORCE_COLOR=1 "$bin" --color never "$ex" 2>&1); grep -q $'\e\[' <<<"$out" && { echo "FAIL --color never wins"; fail=1; } || echo "ok   --color never wins over FORCE_COLOR"
out=$(TERM=dumb script -qec "$bin $ex" /dev/null 2>&1); grep -q $'\e\[1' <<<"$out" && { echo "FAIL TERM=dumb"; fail=1; } || echo "ok   TERM=dumb on a terminal: no colour"
out=$(TERM=xterm script -qec "$bin $ex" /dev/null 2>&1); grep -q $'\e\[1' <<<"$out" && echo "ok   a terminal gets colour" || { echo "FAIL a terminal gets colour"; fail=1; }
# `--` ends the options (POSIX): what follows is a path, even one that starts with `-`, and never a command.
cp "$ex/fsdp.yaml" ./-weird-name.yaml
expect 1 "^-weird-name.yaml:[0-9]+:[0-9]+: " "${L[@]}" --format concise -- -weird-name.yaml
expect 1 "^-weird-name.yaml:[0-9]+:[0-9]+: " "${L[@]}" check --format concise -- -weird-name.yaml
expect 0 "^launch -weird-name.yaml$" "${L[@]}" explain -- -weird-name.yaml
expect 1 "fsdp.yaml:[0-9]+:[0-9]+: " "${L[@]}" --format concise -- "$ex/fsdp.yaml"
expect 2 "unknown option '-weird-name.yaml'" "${L[@]}" -weird-name.yaml
expect 2 "no such file or directory: explian$" "${L[@]}" explain -- explian
expect 0 "# FSDP001" "${L[@]}" rule -- FSDP001
rm ./-weird-name.yaml

# A value echoed in an error is cut (docs/limits.md): a 100 KB argument shows 120 bytes of itself and its length,
# control characters as escapes; no error line is longer than 2,048 bytes and a few.
big=$(head -c 100000 /dev/zero | tr '\0' 'x')
bounded() {  # RC PATTERN CMD...: like expect, and every line of the output is at most 2,200 bytes
  local want=$1 pattern=$2
  shift 2
  local out rc longest
  out=$("$@" 2>&1 </dev/null); rc=$?
  longest=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' <<<"$out")
  if [ "$rc" -eq "$want" ] && [ "$longest" -le 2200 ] && grep -qE -- "$pattern" <<<"$out"; then
    echo "ok   [$rc, longest line $longest] ${2:0:60}..."
  else
    echo "FAIL [$rc, want $want /$pattern/, longest line $longest] ${2:0:60}..."; echo "${out:0:300}"; fail=1
  fi
}
bounded 2 "--target-version: 'x{120}\.\.\. \(100000 bytes\)' is not a version" "${L[@]}" --target-version "torch=$big" "$ex"
bounded 2 "unknown library 'x{120}\.\.\. \(100000 bytes\)'" "${L[@]}" --target-version "$big=2.4" "$ex"
bounded 2 "needs PKG=VERSION \(e.g. torch=2.4\), not 'x{120}\.\.\. \(100000 bytes\)'" "${L[@]}" --target-version "$big" "$ex"
bounded 2 "--select: unknown rule code or prefix 'x{120}\.\.\. \(100000 bytes\)'" "${L[@]}" --select "$big" "$ex"
bounded 2 "--severity needs CODE=LEVEL" "${L[@]}" --severity "$big" "$ex"
bounded 2 "--severity level must be one of error, warning, info, not 'x{120}\.\.\." "${L[@]}" --severity "FSDP001=$big" "$ex"
bounded 2 "unknown format 'x{120}\.\.\. \(100000 bytes\)'" "${L[@]}" --format "$big" "$ex"
bounded 2 "--fail-on must be one of error, warning, info, never, not 'x{120}\.\.\." "${L[@]}" --fail-on "$big" "$ex"
bounded 2 "--color must be one of" "${L[@]}" --color "$big" "$ex"
bounded 2 "--gpu-memory needs the memory of one GPU.*not 'x{120}\.\.\." "${L[@]}" --gpu-memory "$big" "$ex"
bounded 2 "unknown option '--x{118}\.\.\. \(100002 bytes\)'" "${L[@]}" "--$big" "$ex"
bounded 2 "no such file or directory: x{120}\.\.\. \(100000 bytes\)" "${L[@]}" explain "$big"
bounded 2 "unknown rule 'x{120}\.\.\. \(100000 bytes\)'" "${L[@]}" rule "$big"
bounded 2 "--jobs" "${L[@]}" --jobs "$big" "$ex"
bounded 2 "unknown rule code or prefix 'a\\\\x1b\[31mb\\\\nc'" "${L[@]}" --select $'a\e[31mb\nc' "$ex"
mkdir -p bigcfg
printf '%s = 1\n' "$big" > bigcfg/launchlint.toml
bounded 2 "launchlint.toml:1:1: unknown configuration key 'x{120}\.\.\. \(100000 bytes\)'" "${L[@]}" bigcfg
printf 'gpu-memory = "%s"\n' "$big" > bigcfg/launchlint.toml
bounded 2 "gpu-memory must be .*not \"x{120}\.\.\. \(100000 bytes\)\"" "${L[@]}" bigcfg
printf '[target-versions]\ntorch = "%s"\n' "$big" > bigcfg/launchlint.toml
bounded 2 "target-versions: 'x{120}\.\.\. \(100000 bytes\)' is not a version" "${L[@]}" bigcfg
printf '[target-versions]\n%s = "2.4"\n' "$big" > bigcfg/launchlint.toml
bounded 2 "target-versions: unknown library 'x{120}\.\.\." "${L[@]}" bigcfg
printf '[[launch]]\n%s = "train.py"\n' "$big" > bigcfg/launchlint.toml
bounded 2 "unknown key 'x{120}\.\.\. \(100000 bytes\)' in \[\[launch\]\]" "${L[@]}" bigcfg
printf 'select = ["%s"]\n' "$big" > bigcfg/launchlint.toml
bounded 2 "unknown rule code or prefix 'x{120}\.\.\. \(100000 bytes\)'" "${L[@]}" bigcfg
rm -rf bigcfg
exit $fail
