#!/usr/bin/env bash
# The versions launchlint assumes: built-in defaults, the project's pins, target-versions in launchlint.toml and
# --target-version, each shown by `explain` with where it came from; FSDP018 follows them.
set -uo pipefail
bin=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
git init -q .
cat > fsdp.yaml <<'Y'
distributed_type: FSDP
num_machines: 1
num_processes: 8
fsdp_config:
  fsdp_version: 2
  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
  fsdp_transformer_layer_cls_to_wrap: LlamaDecoderLayer
Y
fail=0
check() {  # $1 = description, $2 = text, $3 = expected substring
  if grep -qF -- "$3" <<<"$2"; then echo "ok   $1"; else echo "FAIL $1: no '$3' in:"; echo "$2"; fail=1; fi
}
# 1. No pins, no config: the built-in defaults (docs/sources.md); FSDP018 silent.
out=$("$bin" explain --color never .)
check "defaults shown" "$out" "torch 2.11  <- built-in default (docs/sources.md)"
check "transformers default" "$out" "transformers 5.17  <- built-in default (docs/sources.md)"
out=$("$bin" --select FSDP018 --format concise .)
check "FSDP018 silent without pins" "$out" "All checks passed"
# 2. Pins in requirements.txt: the newest the range allows, with file:line.
printf '# deps\ntorch>=2.4,<2.6\naccelerate==1.10.1\n' > requirements.txt
out=$("$bin" explain --color never .)
check "range pin" "$out" "torch 2.5.x (below 2.6)  <- requirements.txt:2 (torch>=2.4,<2.6)"
check "exact pin" "$out" "accelerate 1.10.1  <- requirements.txt:3 (accelerate==1.10.1)"
json=$("$bin" explain --format json .)
check "json origin" "$json" '"torch": {"assumed": "2.5.x (below 2.6)", "written": "torch>=2.4,<2.6", "origin": "requirements.txt:2", "default": false}'
out=$("$bin" --select FSDP018 --format concise .)
check "FSDP018 from the pin" "$out" "fsdp.yaml:5:17: FSDP018"
# 3. target-versions in launchlint.toml beats the pin.
cat > launchlint.toml <<'T'
target-versions = { torch = "2.6", transformers = ">=4.46,<4.50" }
T
out=$("$bin" explain --color never .)
check "config beats pin" "$out" "torch 2.6  <- launchlint.toml:1:21 (target-versions)"
check "config range" "$out" "transformers 4.49.x (below 4.50)  <- launchlint.toml:1:36 (target-versions)"
out=$("$bin" --select FSDP018 --format concise .)
check "FSDP018 silent with torch 2.6 configured" "$out" "All checks passed"
# 4. --target-version beats the config.
out=$("$bin" explain --color never --target-version torch=2.4.1 .)
check "command line beats config" "$out" "torch 2.4.1  <- --target-version torch=2.4.1"
out=$("$bin" --select FSDP018 --format concise --target-version torch=2.4.1 .)
check "FSDP018 from the command line" "$out" "FSDP018"
# 5. Mistakes are usage or configuration errors.
"$bin" --target-version torch .  >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "needs PKG=VERSION" "$tmp/err" && echo "ok   --target-version without =" || { echo "FAIL --target-version torch: rc $rc"; cat "$tmp/err"; fail=1; }
"$bin" --target-version tensorflow=2.4 . >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown library 'tensorflow'" "$tmp/err" && echo "ok   unknown library" || { echo "FAIL unknown library: rc $rc"; cat "$tmp/err"; fail=1; }
printf 'target-versions = { torch = "two" }\n' > launchlint.toml
"$bin" . >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "launchlint.toml:1:29: target-versions: 'two' is not a version" "$tmp/err" && echo "ok   bad config version" || { echo "FAIL bad config version: rc $rc"; cat "$tmp/err"; fail=1; }
printf 'target-versions = { torh = "2.4" }\n' > launchlint.toml
"$bin" . >/dev/null 2>"$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "unknown library 'torh'" "$tmp/err" && echo "ok   bad config library" || { echo "FAIL bad config library: rc $rc"; cat "$tmp/err"; fail=1; }
exit $fail
