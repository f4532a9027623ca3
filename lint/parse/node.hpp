// The parsed tree of a YAML, JSON or TOML document: typed scalars, mappings that keep duplicate keys in order,
// and the source region of every node.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/source/source_file.hpp"

namespace lint::parse {

enum class NodeKind : std::uint8_t { Null, Bool, Int, Float, String, Sequence, Mapping };

enum class Format : std::uint8_t { Yaml, Json, Toml, Python, Shell, Other };

struct Entry;

/// An explicit YAML tag as written, e.g. "!!python/name:os.system"; empty if none. Nearly every node has none: an
/// empty tag costs a pointer, not a string.
class Tag {
 public:
  Tag() = default;
  Tag(const Tag& other) : text_(other.text_ ? std::make_unique<std::string>(*other.text_) : nullptr) {}
  Tag(Tag&&) noexcept = default;
  Tag& operator=(const Tag& other) {
    if (this != &other) text_ = other.text_ ? std::make_unique<std::string>(*other.text_) : nullptr;
    return *this;
  }
  Tag& operator=(Tag&&) noexcept = default;
  ~Tag() = default;
  Tag& operator=(std::string text) {
    if (text.empty()) {
      text_.reset();
    } else {
      text_ = std::make_unique<std::string>(std::move(text));
    }
    return *this;
  }
  [[nodiscard]] bool empty() const { return !text_; }
  [[nodiscard]] const std::string& str() const;
  friend bool operator==(const Tag& tag, std::string_view text) { return tag.str() == text; }

 private:
  std::unique_ptr<std::string> text_;
};

/// One node. Scalars keep both their typed value and the text they were written as; for YAML the typing is
/// PyYAML's `safe_load` (YAML 1.1): `1e-5` is a String, `off` is a Bool, `0x10` an Int. (A run keeps the trees of
/// some files to its end: the members are ordered so that a node has no padding.)
struct Node {
  std::string text;            ///< a string's value; for other scalars the source text of the scalar
  std::int64_t integer = 0;    ///< Int (values outside int64 are kept as Float with `text` intact)
  double number = 0.0;         ///< Float (also set for Int)
  source::Region region;       ///< the value as written (for a mapping or sequence: from its first to last token)
  std::vector<Entry> entries;  ///< Mapping: every key in document order, duplicates included
  std::vector<Node> items;     ///< Sequence
  Tag tag;                     ///< an explicit YAML tag as written, e.g. "!!python/name:os.system"; empty if none
  NodeKind kind = NodeKind::Null;
  bool boolean = false;  ///< Bool
  bool plain = false;    ///< written without quotes (YAML plain scalar, JSON/TOML number/bool/null)
  /// A collection whose children were not kept (a big file read shallow, a data-only list no rule reads:
  /// parse/readers.hpp ReadPolicy): its kind, tag and region are exact, `entries` and `items` are empty.
  bool elided = false;

  [[nodiscard]] bool is_scalar() const { return kind != NodeKind::Sequence && kind != NodeKind::Mapping; }
  [[nodiscard]] bool is_map() const { return kind == NodeKind::Mapping; }
  /// The value of `key` as the loaders of the tools read it: the last occurrence wins (PyYAML, json.load).
  [[nodiscard]] const Node* find(std::string_view key) const;
  /// The entry of `key` (last occurrence), with the key's own region.
  [[nodiscard]] const Entry* find_entry(std::string_view key) const;
  /// A short human form of a scalar for messages (`'1e-5'`, `true`, `null`).
  [[nodiscard]] std::string display() const;
};

struct Entry {
  Node key;  ///< a scalar; its `text` is the key string (a non-string YAML key keeps its source text)
  Node value;
};

/// A syntax error or input problem found while loading, reported as LL001 at `region`.
struct ParseError {
  source::Region region;
  std::string message;
};

/// A loaded config document.
struct ConfigDocument {
  Format format = Format::Other;
  bool has_root = false;
  /// The tree was given back once the file's per-file rules ran (a run that streams its launches: lint/driver):
  /// `root` keeps only what binding reads (bind::binding_view), and the whole tree is read again, with the text's
  /// content check, before a launch that binds the file is resolved. `errors` are kept.
  bool released = false;
  Node root;
  std::vector<ParseError> errors;
  /// YAML: where a second document starts. Only the first is loaded; a single-document loader (PyYAML's
  /// `safe_load`, which every launch config's consumer uses) raises there, a multi-document one (a Kubernetes
  /// manifest) does not, so whether it is an error depends on who reads the file (the driver decides).
  std::optional<ParseError> extra_document;
};

/// Hard limits of the loaders (documented in docs/limits.md).
inline constexpr std::size_t kMaxNestingDepth = 256;
inline constexpr std::size_t kMaxAliasExpansionNodes = 100000;
/// Scalar text copied by YAML alias expansion, all aliases of a document together.
inline constexpr std::size_t kMaxAliasExpansionBytes = 16U * 1024U * 1024U;

}  // namespace lint::parse
