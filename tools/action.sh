#!/usr/bin/env bash
# The shell steps of the composite GitHub Action (action.yml): install, run, finish. Inputs come as INPUT_*
# variables; results go to $GITHUB_OUTPUT and $GITHUB_PATH as the runner defines them.
#   install  release-url (tarball) > wheel > build from the action's checkout; the binary ends up on GITHUB_PATH
#   run      launchlint $INPUT_ARGS as SARIF (INPUT_OUTPUT=sarif), annotations (github) or text; exit-code output
#   finish   fails when launchlint exited 1 and INPUT_FAIL is true, or when it exited 2 (misuse)
set -euo pipefail
phase=${1:?usage: action.sh install|run|finish}
here=$(cd "$(dirname "$0")/.." && pwd)
work="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/launchlint-action"

fetch() {  # fetch SRC DEST: a URL (curl) or a local path
  case "$1" in
    http://* | https://*) curl -fsSL --retry 3 -o "$2" "$1" ;;
    file://*) cp "${1#file://}" "$2" ;;
    *) cp "$1" "$2" ;;
  esac
}

case "$phase" in
  install)
    mkdir -p "$work"
    if [ -n "${INPUT_RELEASE_URL:-}" ]; then
      fetch "$INPUT_RELEASE_URL" "$work/launchlint.tar.gz"
      rm -rf "$work/release" && mkdir -p "$work/release"
      tar -xzf "$work/launchlint.tar.gz" -C "$work/release" --strip-components=1
      bin_dir="$work/release"
    else
      python3 -m venv "$work/venv"
      if [ -n "${INPUT_WHEEL:-}" ]; then
        case "$INPUT_WHEEL" in
          *.whl)
            wheel="$work/$(basename "${INPUT_WHEEL%%\?*}")"
            fetch "$INPUT_WHEEL" "$wheel"
            "$work/venv/bin/pip" install --quiet --no-index "$wheel"
            ;;
          *) "$work/venv/bin/pip" install --quiet "$INPUT_WHEEL" ;;
        esac
      else
        # From source: the in-tree PEP 517 backend runs CMake (no build requirement is downloaded).
        "$work/venv/bin/pip" install --quiet "$here"
      fi
      bin_dir="$work/venv/bin"
    fi
    "$bin_dir/launchlint" --version
    echo "$bin_dir" >> "${GITHUB_PATH:?GITHUB_PATH is not set}"
    ;;
  run)
    read -r -a args <<<"${INPUT_ARGS:-.}"
    rc=0
    # The log of a report meant for people (paths, quoted values) is not read for workflow commands: a file named
    # `::error file=x::...` in an untrusted pull request must not become an annotation. The `github` format is
    # made of workflow commands and escapes what it quotes.
    stop_token=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    case "${INPUT_OUTPUT:-sarif}" in
      sarif)
        # SARIF for code scanning, and the findings in the log as well.
        echo "::stop-commands::$stop_token"
        launchlint --format sarif --output "${INPUT_SARIF_FILE:-launchlint.sarif}" --format concise "${args[@]}" || rc=$?
        echo "::$stop_token::"
        [ $rc -ne 2 ] && echo "sarif-file=${INPUT_SARIF_FILE:-launchlint.sarif}" >> "${GITHUB_OUTPUT:?}"
        ;;
      annotations) launchlint --format github "${args[@]}" || rc=$? ;;
      none)
        echo "::stop-commands::$stop_token"
        launchlint "${args[@]}" || rc=$?
        echo "::$stop_token::"
        ;;
      *) echo "::error::launchlint action: output must be sarif, annotations or none, not '${INPUT_OUTPUT}'"; exit 2 ;;
    esac
    echo "exit-code=$rc" >> "${GITHUB_OUTPUT:?}"
    ;;
  finish)
    rc=${LAUNCHLINT_EXIT_CODE:-}
    case "$rc" in
      0) echo "launchlint: no findings at the --fail-on level" ;;
      1) if [ "${INPUT_FAIL:-true}" = true ]; then echo "::error::launchlint reported findings"; exit 1; fi
         echo "launchlint reported findings (fail: false)" ;;
      *) echo "::error::launchlint failed (exit status ${rc:-unknown}): see the Run launchlint step"; exit 1 ;;
    esac
    ;;
  *) echo "action.sh: unknown phase $phase" >&2; exit 2 ;;
esac
