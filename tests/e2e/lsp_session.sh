#!/usr/bin/env bash
# Scripted LSP sessions (tests/lsp/session.js) against `launchlint server`, with the JSON-RPC client library from
# npm (installed from tests/lsp/package-lock.json into the git-ignored tests/lsp/node_modules).
set -euo pipefail
bin="$(realpath "$1")"
command -v node >/dev/null || { echo "lsp_session: node is required" >&2; exit 1; }
cd tests/lsp
if ! node -e "require('vscode-languageserver-protocol/node'); require('vscode-languageserver-textdocument')" 2>/dev/null; then
  npm ci --no-audit --no-fund --silent >&2 || { echo "lsp_session: npm ci failed" >&2; exit 1; }
fi
timeout 120 node session.js "$bin" "$(cd ../.. && pwd)"
