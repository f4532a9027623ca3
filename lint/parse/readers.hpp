// Loaders of config formats. Each returns a tree with exact positions and never throws: malformed input gives
// ParseErrors (LL001) at the exact spot. Nesting deeper than kMaxNestingDepth and YAML alias expansion beyond
// kMaxAliasExpansionNodes stop the load with an error instead of exhausting the stack or memory.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

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

/// The errors read_toml would give `file`, found with toml++ run on pieces of about `piece_bytes`, each cut at a
/// table header, so that only one piece's tree is in memory at a time (docs/limits.md "Huge files"); no tree is
/// built. Nothing when the pieces cannot prove it (a piece with a syntax error, which a full read must place
/// after what came before; a table, key or array of tables that pieces share): read the file in full then.
std::optional<std::vector<ParseError>> check_toml_in_pieces(const source::SourceFile& file, std::size_t piece_bytes);

/// What a partial read keeps (big files: docs/limits.md "Huge files"). Collections left out become stubs
/// (Node::elided) with their exact kind, tag and region. Errors are the same as those of a full read: the whole
/// text is still parsed and every check runs, only the tree is not kept.
struct ReadPolicy {
  /// Keep only what classification reads: the root mapping's entries, their scalar values, and the entries of a
  /// mapping value with scalar values. Sequences at the top two levels and every collection deeper are stubs.
  bool shallow = false;
  /// The values of these root keys are stubs when they are plain data: no tag, anchor, alias, merge key or
  /// repeated key anywhere inside (what the YAML rules would report). YAML only.
  std::vector<std::string_view> elide_root_keys;
};

/// read_yaml with a ReadPolicy; nullopt when the policy cannot be applied exactly (a merge key inside a part
/// left out, or, for elide_root_keys, a part that is not plain data): read the file in full then.
std::optional<ConfigDocument> read_yaml(const source::SourceFile& file, const ReadPolicy& policy);

/// read_json with ReadPolicy::shallow (elide_root_keys is not used for JSON).
ConfigDocument read_json_shallow(const source::SourceFile& file);

}  // namespace lint::parse
