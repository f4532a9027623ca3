#!/usr/bin/env bash
# launchlint agrees with the ground-truth oracle (tools/oracle/results.json): every case is materialised into
# a launch folder, launchlint's effective values and error/no-error verdict are compared with what the real
# accelerate / transformers / torch did. Fails on a disagreement not listed in
# tools/oracle/expected_disagreements.json, and on a listed one that no longer occurs.
# Usage: bash tests/e2e/oracle_agreement.sh build/launchlint   (from the repository root)
set -euo pipefail
bin=${1:?usage: oracle_agreement.sh PATH/TO/launchlint}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
py=$(command -v python3 || true)
[[ -n $py ]] || { echo "python3 not found"; exit 1; }
"$py" "$root/tools/oracle/check_launchlint.py" --launchlint "$bin" "${@:2}" || exit 1
# The DeepSpeed / bitsandbytes oracle (tools/oracle/ds_results.json): error / no-error per recorded case.
"$py" "$root/tools/oracle/check_ds_launchlint.py" --launchlint "$bin" || exit 1
# The whole-launch oracle (tools/oracle/lib_results.json): launch files run by the real launchers, Trainer, TRL,
# Lightning, torchtitan and bitsandbytes; launchlint's findings against what they did, case by case.
exec "$py" "$root/tools/oracle/check_lib_launchlint.py" --launchlint "$bin"
