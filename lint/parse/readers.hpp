// Loaders of config formats. Each returns a tree with exact positions and never throws: malformed input gives
// ParseErrors (LL001) at the exact spot. Nesting deeper than kMaxNestingDepth and YAML alias expansion beyond
// kMaxAliasExpansionNodes stop the load with an error instead of exhausting the stack or memory.
#pragma once

#include "lint/parse/node.hpp"
#include "lint/source/source_file.hpp"

namespace lint::parse {

/// YAML through libyaml with PyYAML's `safe_load` typing (YAML 1.1 resolvers: bool, int, float, null, with
/// PyYAML's exact regular expressions; merge keys `<<`; tags kept in Node::tag; duplicate keys kept). Only the
/// first document of a stream is loaded (further documents are an error, as in `safe_load`).
ConfigDocument read_yaml(const source::SourceFile& file);

/// JSON (RFC 8259) as Python's `json.load` reads it: duplicate keys kept in order (last wins in find()),
/// NaN/Infinity accepted as json.load does, everything else strict. Integers keep their text.
ConfigDocument read_json(const source::SourceFile& file);

/// TOML 1.0 through toml++. Non-ASCII text outside strings and comments is rejected before toml++ sees it
/// (toml++ 3.3 has undefined behaviour on some such input).
ConfigDocument read_toml(const source::SourceFile& file);

}  // namespace lint::parse
