#!/usr/bin/env bash
# Validates launchlint's SARIF with Microsoft's sarif-multitool (SARIF rules plus the GitHub ingestion rules).
#
# Usage (from the repository root):
#   tests/e2e/sarif_validate.sh LAUNCHLINT_BINARY            lint fixtures/ to SARIF and validate that
#   tests/e2e/sarif_validate.sh LAUNCHLINT_BINARY FILE.sarif validate FILE.sarif instead (the binary is unused)
#
# `validate` always exits 0, so this gates on its output log: any result of level error or warning fails.
set -euo pipefail

readonly MULTITOOL_VERSION="5.7.0"
readonly PREFIX=".cache/sarif-multitool"
readonly TOOL="$PREFIX/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"

binary="${1:-}"
sarif_input="${2:-}"

die() {
  echo "sarif_validate: $*" >&2
  exit 1
}

command -v jq >/dev/null || die "jq is required"

installed_version() {
  jq -r '.version // empty' "$PREFIX/node_modules/@microsoft/sarif-multitool/package.json" 2>/dev/null || true
}

if [[ ! -x "$TOOL" || "$(installed_version)" != "$MULTITOOL_VERSION" ]]; then
  command -v npm >/dev/null || die "npm is required to install @microsoft/sarif-multitool"
  echo "sarif_validate: installing @microsoft/sarif-multitool@$MULTITOOL_VERSION into $PREFIX"
  mkdir -p "$PREFIX"
  npm install --prefix "$PREFIX" --no-audit --no-fund --silent "@microsoft/sarif-multitool@$MULTITOOL_VERSION" >&2 ||
    die "npm install failed"
  # npm may drop the executable bit when the package's install scripts are not run.
  [[ -f "$TOOL" ]] || die "no validator at $TOOL"
  chmod u+x "$TOOL"
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

if [[ -n "$sarif_input" ]]; then
  [[ "$sarif_input" == *.sarif && -f "$sarif_input" ]] || die "not a .sarif file: $sarif_input"
  cp "$sarif_input" "$tmp/out.sarif"
else
  [[ -n "$binary" && -x "$binary" ]] || die "usage: $0 LAUNCHLINT_BINARY [FILE.sarif]"
  # Without a docs URL no link is written (nothing may point at a page that does not exist); SARIF2005 wants a
  # tool informationUri, so the validated run configures one, as a release that publishes its pages does.
  status=0
  "$binary" --format sarif --output "$tmp/plain.sarif" fixtures || status=$?
  links=$(jq '[.. | objects | (.helpUri?, .informationUri?) | select(. != null)] | length' "$tmp/plain.sarif")
  [[ "$links" -eq 0 ]] || die "without LAUNCHLINT_DOCS_URL the SARIF must hold no helpUri/informationUri ($links)"
  jq -e '[.runs[0].tool.driver.rules[] | select((.help.markdown | length) < 200)] | length == 0' "$tmp/plain.sarif" \
    >/dev/null || die "every rule's help must hold its whole page"
  status=0
  LAUNCHLINT_DOCS_URL="https://docs.launchlint.test/rules/" \
    "$binary" --format sarif --output "$tmp/out.sarif" fixtures || status=$?
  # 0: nothing found, 1: findings (both fine); anything else is a failure of launchlint itself.
  if [[ $status -ne 0 && $status -ne 1 ]]; then
    die "launchlint exited with status $status"
  fi
  [[ -s "$tmp/out.sarif" ]] || die "launchlint wrote no SARIF"
fi

jq empty "$tmp/out.sarif" || die "the SARIF file is not valid JSON"

# The binary is called directly: the npx wrapper goes through a shell, which would split the ';' in --rule-kind.
"$TOOL" validate "$tmp/out.sarif" --output "$tmp/log.sarif" --rule-kind "Sarif;Gh" --log ForceOverwrite \
  >"$tmp/validate.out" 2>&1 || {
  cat "$tmp/validate.out" >&2
  die "sarif-multitool validate failed to run"
}
[[ -s "$tmp/log.sarif" ]] || {
  cat "$tmp/validate.out" >&2
  die "sarif-multitool wrote no log"
}

# A result without `level` takes its rule's default level, and "warning" when the rule has none (SARIF 3.27.10);
# the validator omits `level` on some warnings (e.g. SARIF1001), so those count too.
readonly LEVELED='.runs[] as $run | $run.results[]? | . + {level: (.level //
  (if .ruleIndex != null then $run.tool.driver.rules[.ruleIndex].defaultConfiguration.level else null end) //
  "warning")}'
count() { jq "[$LEVELED | select($1)] | length" "$tmp/log.sarif"; }
errors="$(count '.level == "error"')"
warnings="$(count '.level == "warning"')"
# The validator's own failures (unreadable file, a rule that threw) are notifications, not results.
notifications="$(jq '[.runs[].invocations[]?.toolExecutionNotifications[]? | select(.level == "error")] | length' \
  "$tmp/log.sarif")"
results="$(jq '[.runs[0].results[]?] | length' "$tmp/out.sarif")"
rules="$(jq '[.runs[0].tool.driver.rules[]?] | length' "$tmp/out.sarif")"

echo "sarif_validate: validated ${sarif_input:-launchlint output for fixtures/} ($results results, $rules rules):" \
  "$errors errors, $warnings warnings, $notifications tool errors (sarif-multitool $MULTITOOL_VERSION, rule kinds Sarif;Gh)"

if [[ "$errors" -ne 0 || "$warnings" -ne 0 || "$notifications" -ne 0 ]]; then
  jq -r "$LEVELED"' | select(.level == "error" or .level == "warning")
         | "\(.level): \(.ruleId): \(.message.text // (.message.arguments // [] | join(" | ")))"' "$tmp/log.sarif" >&2
  jq -r '.runs[].invocations[]?.toolExecutionNotifications[]? | select(.level == "error")
         | "tool error: \(.message.text)"' "$tmp/log.sarif" >&2
  exit 1
fi
