#!/usr/bin/env bash
# Rule pages, docs and code comments cite what a reader can open: a library's file:line at a named version
# (docs/sources.md), an upstream doc or issue, or a file of this repository. This check fails on
#  1. a citation of a location outside the repository (research notes, sibling folders, absolute paths), and
#  2. a repository path cited in rules/*/*.md, docs/**/*.md, README.md or CONTRIBUTING.md, or in a comment under
#     lint/ or rules/, that does not exist.
set -uo pipefail
cd "$(dirname "$0")/../.."
self=tests/e2e/citations.sh
fail=0

# 1. Locations outside the repository.
outside='knowledge(/| §)|shared/knowledge|\.\./shared|/work/shared|accelerate_fsdp\.md|fsdp_semantics\.md|trainer_deepspeed_torchtitan\.md|linter_ux_anchors|fsdp_memory_measurements\.jsonl|fsdp_memory_real_vs_fake\.jsonl|DESIGN\.md|RULES\.md|STYLE\.md|TOOLCHAIN\.md|HELPERS\.md'
while IFS= read -r hit; do
  file=${hit%%:*}
  [ "$file" = "$self" ] && continue
  echo "FAIL     $hit  (cite a public source: docs/sources.md)"
  fail=1
done < <(grep -rnE "$outside" rules lint docs tools tests examples README.md CONTRIBUTING.md .ci \
           --exclude-dir=snapshots --exclude-dir=golden 2>/dev/null)

# 2. Repository paths that must exist. A path is a token starting with one of the top-level folders; trailing
#    punctuation, `:line` suffixes and `#anchors` are dropped; tokens with wildcards or placeholders are skipped.
check_path() {  # $1 = citing file, $2 = line number, $3 = token
  local tok=$3
  tok=${tok%%#*}
  tok=${tok%%:*}
  while [[ $tok =~ [\),.\;\`\'\"]$ ]]; do tok=${tok%?}; done
  case $tok in *'*'* | *'<'* | *'{'* | *'…'* | *'...'*) return ;; esac
  # Hugging Face repositories keep their documentation under docs/source/: an upstream path, not one of ours.
  case $tok in docs/source/*) return ;; esac
  [ -e "$tok" ] && return
  echo "FAIL     $1:$2: cites $tok, which does not exist in the repository"
  fail=1
}
dirs='docs|tools|tests|fixtures|examples|rules|lint|grammars'
docs=(README.md CONTRIBUTING.md rules/*/*.md)
while IFS= read -r f; do docs+=("$f"); done < <(find docs -name '*.md')
for f in "${docs[@]}"; do
  # Relative Markdown links, resolved against the page's folder.
  while IFS=: read -r n link; do
    link=${link#](}
    link=${link%)}
    link=${link%%#*}
    case $link in http* | mailto:* | '') continue ;; esac
    [ -e "$(dirname "$f")/$link" ] || { echo "FAIL     $f:$n: link $link does not resolve"; fail=1; }
  done < <(grep -noE '\]\([^)]+\)' "$f")
  # Repository paths written out (not inside links).
  while IFS=: read -r n tok; do check_path "$f" "$n" "$tok"; done \
    < <(sed -E 's/\]\([^)]*\)//g' "$f" | grep -noE "(^|[ \`(])($dirs)/[A-Za-z0-9_./*<>{}-]+" | sed -E 's/:[ `(]/:/')
done
# Comments in the code cite docs/ pages.
while IFS=: read -r f n tok; do check_path "$f" "$n" "$tok"; done \
  < <(grep -rnoE "//.*[ \`(]docs/[A-Za-z0-9_./-]+" lint rules tests --include='*.cpp' --include='*.hpp' |
      sed -E 's#^([^:]+:[0-9]+:).*[ `(](docs/[A-Za-z0-9_./-]+)$#\1\2#')

[ $fail -eq 0 ] && echo "ok: citations are public and repository paths exist"
exit $fail
