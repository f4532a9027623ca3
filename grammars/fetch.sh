#!/usr/bin/env bash
# Fetches one pinned package of grammars/manifest.txt (the tree-sitter runtime or a grammar) from the npm registry,
# checks its integrity against the manifest and unpacks `src/` (and `include/` where present) of the folder the
# manifest names (`.` for a grammar's generated C, `vendor/tree-sitter/lib` for the runtime's C library) into
# DEST/NAME.
# Usage: fetch.sh NAME DEST [CACHE_DIR]
set -euo pipefail
name=$1 dest=$2 cache=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
read -r _ version integrity subdir < <(grep -E "^${name}[[:space:]]" "$here/manifest.txt")
[ -n "${integrity:-}" ] && [ -n "${subdir:-}" ] || { echo "fetch.sh: $name is not in grammars/manifest.txt" >&2; exit 2; }
out="$dest/$name"
stamp="$out/.integrity"
marker="$out/src/parser.c"
[ "$subdir" = . ] || marker="$out/src/lib.c"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$integrity" ] && [ -f "$marker" ]; then exit 0; fi

tgz=""
if [ -n "$cache" ] && [ -f "$cache/$name-$version.tgz" ]; then tgz="$cache/$name-$version.tgz"; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$tgz" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "fetch.sh: $name-$version.tgz is not in the grammar cache (${cache:-none}) and npm is not installed;" \
      "install npm or fill the cache (docs/building.md)" >&2
    exit 1
  fi
  echo "fetch.sh: fetching $name@$version from the npm registry" >&2
  (cd "$tmp" && npm pack --silent "$name@$version" >/dev/null)
  tgz="$tmp/$name-$version.tgz"
fi
algo=${integrity%%-*}
expected=${integrity#*-}
actual=$(openssl dgst "-$algo" -binary "$tgz" | base64 -w0)
if [ "$actual" != "$expected" ]; then
  echo "fetch.sh: integrity mismatch for $name@$version: expected $integrity, got $algo-$actual" >&2
  exit 1
fi
if [ -n "$cache" ] && [ "$tgz" != "$cache/$name-$version.tgz" ]; then mkdir -p "$cache" && cp "$tgz" "$cache/"; fi
rm -rf "$out" && mkdir -p "$out"
root=package
[ "$subdir" = . ] || root="package/$subdir"
strip=$(($(tr -cd / <<<"$root" | wc -c) + 1))
members=("$root/src")
if tar -tzf "$tgz" | grep "^$root/include/" >/dev/null; then members+=("$root/include"); fi
tar -xzf "$tgz" -C "$out" --strip-components="$strip" "${members[@]}"
tar -xzf "$tgz" -C "$out" --strip-components=1 package/LICENSE 2>/dev/null || true
[ -f "$marker" ] || { echo "fetch.sh: $name@$version has no ${marker#"$out/"}" >&2; exit 1; }
printf '%s' "$integrity" > "$stamp"
