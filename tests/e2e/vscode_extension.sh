#!/usr/bin/env bash
# Builds the VS Code extension's .vsix (tools/build-vscode-extension) and checks what it holds: the manifest with
# the server's activation and settings, the compiled client, its runtime dependency; and that the compiled binary
# lookup finds launchlint on PATH and through the setting.
set -euo pipefail
bin="$(realpath "$1")"
command -v node >/dev/null || { echo "vscode_extension: node is required" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "vscode_extension: $*" >&2; exit 1; }

tools/build-vscode-extension "$tmp/launchlint.vsix" >/dev/null
[[ -s "$tmp/launchlint.vsix" ]] || fail "no .vsix"
mkdir "$tmp/x"
(cd "$tmp/x" && python3 -m zipfile -e ../launchlint.vsix .)
for f in extension/package.json extension/out/extension.js extension/out/binary.js \
         extension/node_modules/vscode-languageclient/package.json extension.vsixmanifest; do
  [[ -f "$tmp/x/$f" ]] || fail "the .vsix lacks $f"
done
[[ ! -e "$tmp/x/extension/src" ]] || fail "the .vsix carries the TypeScript sources"
jq -e '.main == "./out/extension.js" and (.activationEvents | index("workspaceContains:**/launchlint.toml")) and
       .contributes.configuration.properties["launchlint.path"]' "$tmp/x/extension/package.json" >/dev/null ||
  fail "manifest lacks main, activation or settings"
grep -q "'server'" "$tmp/x/extension/out/extension.js" || fail "the client does not start 'launchlint server'"

# The binary lookup: on PATH, through an absolute setting, and nothing for a missing one.
mkdir "$tmp/bin" && ln -s "$bin" "$tmp/bin/launchlint"
node -e '
  const { findBinary } = require(process.argv[1]);
  const [dir, bin] = process.argv.slice(2);
  const assert = require("assert");
  assert.equal(findBinary("", "/nonexistent:" + dir, undefined, false), dir + "/launchlint");
  assert.equal(findBinary(bin, "", undefined, false), bin);
  assert.equal(findBinary("", "/nonexistent", undefined, false), undefined);
  assert.equal(findBinary("missing/launchlint", "", "/tmp", false), undefined);
' "$tmp/x/extension/out/binary.js" "$tmp/bin" "$bin" || fail "binary lookup"
echo "vscode_extension: ok"
