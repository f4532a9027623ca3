// YAML through libyaml's event API, composed and typed the way PyYAML's `safe_load` does it (YAML 1.1
// resolvers, merge keys, duplicate anchors rejected, one document), so the tree holds what the launcher gets.
// Longer than the ~700-line guideline on purpose: the YAML 1.1 implicit resolvers and the composer are PyYAML's
// behaviour in one place, tested together (tests/lint/parse/yaml_reader_test.cpp).
#include <yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lint/parse/reader_support.hpp"
#include "lint/parse/readers.hpp"

namespace lint::parse {

namespace {

constexpr std::string_view kYamlTagPrefix = "tag:yaml.org,2002:";

// ---------------------------------------------------------------------------------------------------------
// PyYAML's implicit resolvers (yaml/resolver.py), written out as matchers over the whole scalar.

bool is_dec(char c) {
  return c >= '0' && c <= '9';
}
bool is_dec_or_us(char c) {
  return is_dec(c) || c == '_';
}
bool all_of(std::string_view s, bool (*pred)(char)) {
  return std::all_of(s.begin(), s.end(), pred);
}

std::string_view strip_sign(std::string_view s) {
  return !s.empty() && (s[0] == '-' || s[0] == '+') ? s.substr(1) : s;
}

// `:[0-5]?[0-9]` repeated at least once, covering all of `s`.
bool match_sexagesimal_groups(std::string_view s) {
  if (s.empty()) return false;
  while (!s.empty()) {
    if (s[0] != ':') return false;
    s.remove_prefix(1);
    const std::size_t len = std::min(s.find(':'), s.size());
    const std::string_view group = s.substr(0, len);
    const bool ok = (group.size() == 1 && is_dec(group[0])) ||
                    (group.size() == 2 && group[0] >= '0' && group[0] <= '5' && is_dec(group[1]));
    if (!ok) return false;
    s.remove_prefix(len);
  }
  return true;
}

// ^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$
std::optional<bool> match_bool(std::string_view s) {
  static constexpr std::string_view kTrue[] = {"yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"};
  static constexpr std::string_view kFalse[] = {"no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"};
  for (std::string_view t : kTrue) {
    if (s == t) return true;
  }
  for (std::string_view f : kFalse) {
    if (s == f) return false;
  }
  return std::nullopt;
}

// ^(?: ~ |null|Null|NULL | )$  (the empty scalar included)
bool match_null(std::string_view s) {
  return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

// ^(?:[-+]?0b[0-1_]+ |[-+]?0[0-7_]+ |[-+]?(?:0|[1-9][0-9_]*) |[-+]?0x[0-9a-fA-F_]+
//    |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$
bool match_int(std::string_view s) {
  const std::string_view t = strip_sign(s);
  if (t.empty()) return false;
  if (t.size() > 2 && t[0] == '0' && t[1] == 'b') {
    return all_of(t.substr(2), [](char c) { return c == '0' || c == '1' || c == '_'; });
  }
  if (t.size() > 2 && t[0] == '0' && t[1] == 'x') {
    return all_of(t.substr(2), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0 || c == '_'; });
  }
  if (t[0] == '0') {
    return all_of(t.substr(1), [](char c) { return (c >= '0' && c <= '7') || c == '_'; });  // "0" or octal
  }
  if (t[0] < '1' || t[0] > '9') return false;
  const std::size_t colon = t.find(':');
  if (colon == std::string_view::npos) return all_of(t.substr(1), is_dec_or_us);
  return all_of(t.substr(1, colon - 1), is_dec_or_us) && match_sexagesimal_groups(t.substr(colon));
}

// [0-9_]* then an optional exponent that needs its sign: (?:[eE][-+][0-9]+)?
bool match_fraction_and_exponent(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_dec_or_us(s[i])) ++i;
  if (i == s.size()) return true;
  if (s[i] != 'e' && s[i] != 'E') return false;
  ++i;
  if (i >= s.size() || (s[i] != '-' && s[i] != '+')) return false;
  ++i;
  return i < s.size() && all_of(s.substr(i), is_dec);
}

// ^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)? |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
//    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]* |[-+]?\.(?:inf|Inf|INF) |\.(?:nan|NaN|NAN))$
bool match_float(std::string_view s) {
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return true;
  // The second alternative takes no sign: `-.5` stays a string.
  if (s.size() > 1 && s[0] == '.' && is_dec(s[1])) return match_fraction_and_exponent(s.substr(2));
  const std::string_view t = strip_sign(s);
  if (t == ".inf" || t == ".Inf" || t == ".INF") return true;
  if (t.empty() || !is_dec(t[0])) return false;
  std::size_t i = 1;
  while (i < t.size() && is_dec_or_us(t[i])) ++i;
  if (i == t.size()) return false;
  if (t[i] == '.') return match_fraction_and_exponent(t.substr(i + 1));
  if (t[i] != ':') return false;
  const std::size_t dot = t.find('.', i);
  if (dot == std::string_view::npos) return false;
  return match_sexagesimal_groups(t.substr(i, dot - i)) && all_of(t.substr(dot + 1), is_dec_or_us);
}

// ---------------------------------------------------------------------------------------------------------
// PyYAML's constructors (SafeConstructor.construct_yaml_int / _float / _bool). They run on implicitly
// resolved scalars and on explicitly tagged ones, so they accept a little more than the resolvers.

std::string remove_underscores(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != '_') out += c;
  }
  return out;
}

std::string_view trim_space(std::string_view s) {
  const auto is_space = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

// Python's int(digits, base) for plain digits; an out-of-int64 magnitude is reported through `overflow`
// (with `approx` as its double value) because Python ints are unbounded.
bool digits_to_int(std::string_view digits, int base, std::uint64_t& value, bool& overflow, double& approx) {
  if (digits.empty()) return false;
  value = 0;
  approx = 0.0;
  for (char c : digits) {
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0 || d >= base) return false;
    approx = approx * base + d;
    if (!overflow) {
      if (value > (std::numeric_limits<std::uint64_t>::max() - static_cast<std::uint64_t>(d)) /
                      static_cast<std::uint64_t>(base)) {
        overflow = true;
      } else {
        value = value * static_cast<std::uint64_t>(base) + static_cast<std::uint64_t>(d);
      }
    }
  }
  return true;
}

void set_int(Node& node, bool negative, std::uint64_t magnitude, bool overflow, double approx) {
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63U : (std::uint64_t{1} << 63U) - 1;
  if (!overflow && magnitude <= limit) {
    node.kind = NodeKind::Int;
    node.integer = negative ? static_cast<std::int64_t>(~magnitude + 1) : static_cast<std::int64_t>(magnitude);
    node.number = static_cast<double>(node.integer);
  } else {
    node.kind = NodeKind::Float;  // beyond int64: keep the text, approximate the value
    node.number = negative ? -approx : approx;
  }
}

bool construct_int(std::string_view text, Node& node) {
  const std::string cleaned = remove_underscores(text);
  std::string_view v = cleaned;
  if (v.empty()) return false;
  const bool negative = v[0] == '-';
  if (v[0] == '-' || v[0] == '+') v.remove_prefix(1);
  if (v.empty()) return false;
  std::uint64_t magnitude = 0;
  bool overflow = false;
  double approx = 0.0;
  bool ok = false;
  if (v == "0") {
    ok = true;
  } else if (v.substr(0, 2) == "0b") {
    ok = digits_to_int(v.substr(2), 2, magnitude, overflow, approx);
  } else if (v.substr(0, 2) == "0x") {
    ok = digits_to_int(v.substr(2), 16, magnitude, overflow, approx);
  } else if (v[0] == '0') {
    std::string_view octal = v;
    if (octal.size() > 2 && (octal[1] == 'o' || octal[1] == 'O')) octal.remove_prefix(2);  // int('0o17', 8)
    ok = digits_to_int(octal, 8, magnitude, overflow, approx);
  } else if (v.find(':') != std::string_view::npos) {
    // Base 60, most significant part first.
    ok = true;
    while (ok && !v.empty()) {
      const std::size_t colon = std::min(v.find(':'), v.size());
      std::uint64_t part = 0;
      bool part_overflow = false;
      double part_approx = 0.0;
      ok = digits_to_int(trim_space(v.substr(0, colon)), 10, part, part_overflow, part_approx);
      approx = approx * 60 + part_approx;
      if (!overflow && !part_overflow && magnitude <= (std::numeric_limits<std::uint64_t>::max() - part) / 60) {
        magnitude = magnitude * 60 + part;
      } else {
        overflow = true;
      }
      v.remove_prefix(colon);
      if (!v.empty()) {
        v.remove_prefix(1);
        if (v.empty()) ok = false;  // a trailing ':' is int('')
      }
    }
  } else {
    ok = digits_to_int(trim_space(v), 10, magnitude, overflow, approx);
  }
  if (!ok) return false;
  set_int(node, negative, magnitude, overflow, approx);
  return true;
}

bool construct_float(std::string_view text, Node& node) {
  std::string cleaned = remove_underscores(text);
  for (char& c : cleaned) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string_view v = cleaned;
  if (v.empty()) return false;
  const double sign = v[0] == '-' ? -1.0 : 1.0;
  if (v[0] == '-' || v[0] == '+') v.remove_prefix(1);
  double value = 0.0;
  if (v == ".inf") {
    value = std::numeric_limits<double>::infinity();
  } else if (v == ".nan") {
    node.kind = NodeKind::Float;
    node.number = std::numeric_limits<double>::quiet_NaN();
    return true;
  } else if (v.find(':') != std::string_view::npos) {
    while (!v.empty()) {
      const std::size_t colon = std::min(v.find(':'), v.size());
      const std::optional<double> part = detail::decimal_to_double(trim_space(v.substr(0, colon)));
      if (!part) return false;
      value = value * 60 + *part;
      v.remove_prefix(colon);
      if (!v.empty()) {
        v.remove_prefix(1);
        if (v.empty()) return false;
      }
    }
  } else {
    const std::optional<double> parsed = detail::decimal_to_double(trim_space(v));
    if (!parsed) return false;
    value = *parsed;
  }
  node.kind = NodeKind::Float;
  node.number = sign * value;
  return true;
}

// bool_values of SafeConstructor: the explicit `!!bool` tag accepts these, case-insensitively.
std::optional<bool> construct_bool(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "yes" || lower == "true" || lower == "on") return true;
  if (lower == "no" || lower == "false" || lower == "off") return false;
  return std::nullopt;
}

// "tag:yaml.org,2002:python/name:os.system" -> "!!python/name:os.system", as it would be written.
std::string display_tag(std::string_view tag) {
  if (tag.substr(0, kYamlTagPrefix.size()) == kYamlTagPrefix)
    return "!!" + std::string(tag.substr(kYamlTagPrefix.size()));
  return std::string(tag);
}

std::string hex(int value) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  auto v = static_cast<unsigned>(value);
  do {
    out.insert(out.begin(), kDigits[v & 0xFU]);
    v >>= 4U;
  } while (v != 0);
  if (out.size() < 2) out.insert(out.begin(), '0');
  return out;
}

std::string_view kind_name(NodeKind kind) {
  switch (kind) {
    case NodeKind::Sequence:
      return "sequence";
    case NodeKind::Mapping:
      return "mapping";
    default:
      return "scalar";
  }
}

// ---------------------------------------------------------------------------------------------------------
// The composer.
//
// Most of a document is built straight into Node form. Only anchored nodes (and what they contain) go into a
// small graph in which an alias is a reference, as PyYAML's composer keeps them, so that aliases and merges
// inside anchored nodes cost nothing until the anchored node is copied into the tree; each anchored node knows
// how many nodes it expands to and how deep, which lets an alias bomb or an over-deep alias fail at the alias.

// Scalars whose implicit tag has no safe constructor: only meaningful as mapping keys (`<<`, and `=`).
enum class Special : std::uint8_t { None, Merge, Value };

// A child in the graph: an index into it. Several parents may refer to one node (aliases, merges).
struct Ref {
  std::uint32_t node = 0;
};

struct GraphNode {
  Node value;                 // kind, scalar fields, tag, region; children are in `children`
  std::vector<Ref> children;  // sequence items, or mapping keys and values alternately
  std::uint64_t weight = 1;   // nodes this expands to
  std::uint64_t bytes = 0;    // scalar text this expands to
  std::uint32_t height = 0;   // collection levels this expands to (0 for a scalar)
  Special special = Special::None;
  bool anchored = false;
  bool complete = false;
};

struct Frame {
  bool graph = false;  // inside an anchored node: composing into the graph
  bool flow = false;
  std::uint32_t graph_node = 0;     // graph frames
  Node node;                        // direct frames: the collection (its children are in the scratch lists)
  bool has_key = false;             // direct mappings: the last entry has a key and no value yet
  std::vector<std::size_t> merges;  // direct mappings: entries whose key is `<<`
  bool drop = false;                // direct frames: children are checked, not kept (the node becomes a stub)
  std::vector<std::string> keys;    // dropped mappings read for plain data: each key's identity
};

// A mapping key as Python compares it after construction (`1`, `1.0` and `true` are one key), for finding
// repeated keys in a part that is left out (rules/yaml/yaml-duplicate-key.cpp compares the same way).
std::string key_identity(const Node& key) {
  switch (key.kind) {
    case NodeKind::String:
      return "s:" + key.text;
    case NodeKind::Null:
      return "null";
    case NodeKind::Bool:
      return key.boolean ? "n:1" : "n:0";
    case NodeKind::Int:
      return "n:" + std::to_string(key.integer);
    case NodeKind::Float:
      if (std::isfinite(key.number) && std::trunc(key.number) == key.number && std::fabs(key.number) < 9.0e15)
        return "n:" + std::to_string(static_cast<long long>(key.number));
      return "f:" + key.text;
    default:
      return "?:" + key.text;
  }
}

class YamlComposer {
 public:
  explicit YamlComposer(const source::SourceFile& file, ReadPolicy policy = {})
      : text_(file.text()), cursor_(file), policy_(std::move(policy)) {
    if (text_.size() >= 3 && text_.compare(0, 3, "\xEF\xBB\xBF") == 0) base_ = 3;
    mark_byte_ = base_;
  }

  /// True when the policy could not be applied exactly (the result of run() is then incomplete).
  [[nodiscard]] bool gave_up() const { return gave_up_; }

  ConfigDocument run() {
    ConfigDocument doc;
    doc.format = Format::Yaml;
    compose();
    if (!error_ && construct_error_) error_ = std::move(construct_error_);
    if (error_) {
      doc.errors.push_back(std::move(*error_));
    } else if (root_) {
      doc.root = std::move(*root_);
      doc.has_root = true;
      doc.extra_document = std::move(extra_document_);
    }
    return doc;
  }

 private:
  // libyaml marks count characters from the first one after a byte order mark.
  std::size_t mark_to_byte(const yaml_mark_t& mark) {
    const std::size_t target = mark.index;
    while (mark_chars_ < target && mark_byte_ < text_.size()) {
      ++mark_byte_;
      while (mark_byte_ < text_.size() && detail::is_utf8_continuation(static_cast<unsigned char>(text_[mark_byte_]))) {
        ++mark_byte_;
      }
      ++mark_chars_;
    }
    while (mark_chars_ > target && mark_byte_ > base_) {
      --mark_byte_;
      while (mark_byte_ > base_ && detail::is_utf8_continuation(static_cast<unsigned char>(text_[mark_byte_]))) {
        --mark_byte_;
      }
      --mark_chars_;
    }
    return mark_byte_;
  }

  source::Region mark_region(const yaml_mark_t& begin, const yaml_mark_t& end) {
    const std::size_t b = mark_to_byte(begin);
    const std::size_t e = mark_to_byte(end);
    return cursor_.region(b, e);
  }

  source::Region char_region_at_mark(const yaml_mark_t& mark) { return cursor_.char_region(mark_to_byte(mark)); }

  void fail(source::Region region, std::string message) {
    if (!error_) error_ = ParseError{region, std::move(message)};
  }

  // Errors of PyYAML's constructor phase: reported only if the whole document composes, as there.
  void construct_fail(source::Region region, std::string message) {
    if (!construct_error_) construct_error_ = ParseError{region, std::move(message)};
  }

  void special_misplaced(const Node& node, Special special) {
    const std::string tag = special == Special::Merge ? "merge" : "value";
    construct_fail(node.region, "could not determine a constructor for the tag 'tag:yaml.org,2002:" + tag +
                                    "' (a plain '" + node.text + "' is only allowed as a mapping key)");
  }

  void fail_from_parser(const yaml_parser_t& parser) {
    if (parser.error == YAML_READER_ERROR) {
      // Reader errors carry a byte offset into the input we handed over (after the BOM), not a mark.
      std::string message = parser.problem != nullptr ? parser.problem : "cannot read the input";
      if (parser.problem_value != -1) message += " (#x" + hex(parser.problem_value) + ")";
      fail(cursor_.char_region(base_ + parser.problem_offset), std::move(message));
      return;
    }
    if (parser.error == YAML_MEMORY_ERROR) {
      fail(cursor_.char_region(base_), "out of memory while parsing YAML");
      return;
    }
    std::string message = parser.problem != nullptr ? parser.problem : "invalid YAML";
    const source::Region at = char_region_at_mark(parser.problem_mark);
    if (parser.context != nullptr) {
      const source::Region context = char_region_at_mark(parser.context_mark);
      message += " (" + std::string(parser.context) + " at line " + std::to_string(context.begin.line) + ", column " +
                 std::to_string(context.begin.column) + ")";
    }
    fail(at, std::move(message));
  }

  void compose() {
    yaml_parser_t parser;
    if (yaml_parser_initialize(&parser) == 0) {
      fail(cursor_.char_region(0), "out of memory while parsing YAML");
      return;
    }
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text_.data()) + base_,
                                 text_.size() - base_);
    // PyYAML reads the file as UTF-8 text: no UTF-16 detection.
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    bool done = false;
    while (!done && !error_ && !gave_up_) {
      yaml_event_t event;
      if (yaml_parser_parse(&parser, &event) == 0) {
        fail_from_parser(parser);
        break;
      }
      done = handle(event);
      yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
  }

  // Returns true at the end of the stream.
  bool handle(const yaml_event_t& event) {
    switch (event.type) {
      case YAML_STREAM_END_EVENT:
        return true;
      case YAML_DOCUMENT_START_EVENT:
        if (++documents_ > 1) {
          extra_document_ = ParseError{char_region_at_mark(event.start_mark),
                                       "expected a single document in the stream, but found another document"};
          return true;
        }
        return false;
      case YAML_SCALAR_EVENT:
        on_scalar(event);
        return false;
      case YAML_ALIAS_EVENT:
        on_alias(event);
        return false;
      case YAML_SEQUENCE_START_EVENT:
        on_collection_start(event, NodeKind::Sequence, event.data.sequence_start.anchor, event.data.sequence_start.tag,
                            event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE);
        return false;
      case YAML_MAPPING_START_EVENT:
        on_collection_start(event, NodeKind::Mapping, event.data.mapping_start.anchor, event.data.mapping_start.tag,
                            event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE);
        return false;
      case YAML_SEQUENCE_END_EVENT:
      case YAML_MAPPING_END_EVENT:
        on_collection_end(event);
        return false;
      default:
        return false;
    }
  }

  [[nodiscard]] bool in_graph() const { return !stack_.empty() && stack_.back().graph; }

  // Whether the node being composed now is left out: its direct parent drops its children.
  [[nodiscard]] bool dropping() const { return !stack_.empty() && !stack_.back().graph && stack_.back().drop; }

  // Whether the part being composed now must be plain data (elide_root_keys): anything a rule could report
  // there makes the policy give up.
  [[nodiscard]] bool must_be_plain() const { return !policy_.elide_root_keys.empty() && dropping(); }

  // Whether a direct collection starting now at nesting `level` keeps its children.
  [[nodiscard]] bool drops_children(NodeKind kind, std::size_t level) const {
    if (dropping()) return true;
    if (policy_.shallow) return level >= 2 || kind == NodeKind::Sequence;
    if (level != 1 || policy_.elide_root_keys.empty()) return false;
    const Frame& root = stack_.front();
    if (root.graph || root.node.kind != NodeKind::Mapping || !root.has_key) return false;
    const Node& key = entry_scratch_[0].back().key;
    if (key.kind != NodeKind::String) return false;
    return std::find(policy_.elide_root_keys.begin(), policy_.elide_root_keys.end(), key.text) !=
           policy_.elide_root_keys.end();
  }

  std::uint32_t new_graph_node() {
    graph_.emplace_back();
    return static_cast<std::uint32_t>(graph_.size() - 1);
  }

  bool register_anchor(const yaml_char_t* anchor, std::uint32_t index, const yaml_mark_t& mark) {
    if (anchor == nullptr) return true;
    const std::string name(reinterpret_cast<const char*>(anchor));
    auto [it, inserted] = anchors_.try_emplace(name, index);
    if (!inserted) {
      const source::Region first = graph_[it->second].value.region;
      fail(char_region_at_mark(mark), "found duplicate anchor '" + name + "' (first occurrence at line " +
                                          std::to_string(first.begin.line) + ", column " +
                                          std::to_string(first.begin.column) + ")");
      return false;
    }
    graph_[index].anchored = true;
    return true;
  }

  // Adds a finished node to a direct parent (or makes it the root).
  void place(Node&& node, Special special) {
    if (stack_.empty()) {
      if (special != Special::None) special_misplaced(node, special);
      root_ = std::move(node);
      return;
    }
    const std::size_t level = stack_.size() - 1;
    Frame& parent = stack_.back();
    if (parent.drop) {
      place_dropped(parent, node, special);
      return;
    }
    if (parent.node.kind == NodeKind::Sequence) {
      if (special != Special::None) special_misplaced(node, special);
      item_scratch_[level].push_back(std::move(node));
      return;
    }
    std::vector<Entry>& entries = entry_scratch_[level];
    if (!parent.has_key) {
      if (!node.is_scalar()) {
        construct_fail(node.region,
                       "found unhashable key (a " + std::string(kind_name(node.kind)) + " cannot be a mapping key)");
      }
      if (special == Special::Merge) parent.merges.push_back(entries.size());  // `=` as a key is just "="
      entries.emplace_back();
      entries.back().key = std::move(node);
      parent.has_key = true;
      return;
    }
    if (special != Special::None) special_misplaced(node, special);
    entries.back().value = std::move(node);
    parent.has_key = false;
  }

  // place() for a parent that keeps no children: the same checks, nothing kept.
  void place_dropped(Frame& parent, const Node& node, Special special) {
    if (special == Special::Merge && parent.node.kind == NodeKind::Mapping && !parent.has_key) {
      gave_up_ = true;  // merged entries are checked when the mapping ends (flatten_merges): read it all
      return;
    }
    if (!policy_.elide_root_keys.empty() && !node.tag.empty()) gave_up_ = true;
    if (parent.node.kind == NodeKind::Sequence) {
      if (special != Special::None) special_misplaced(node, special);
      return;
    }
    if (!parent.has_key) {
      if (!node.is_scalar()) {
        construct_fail(node.region,
                       "found unhashable key (a " + std::string(kind_name(node.kind)) + " cannot be a mapping key)");
      }
      if (!policy_.elide_root_keys.empty()) parent.keys.push_back(key_identity(node));
      parent.has_key = true;
      return;
    }
    if (special != Special::None) special_misplaced(node, special);
    parent.has_key = false;
  }

  // Adds a finished graph node to its parent: a reference inside the graph, a copy in direct form.
  void place_graph(Ref ref) {
    if (in_graph()) {
      GraphNode& parent = graph_[stack_.back().graph_node];
      const bool is_key = parent.value.kind == NodeKind::Mapping && parent.children.size() % 2 == 0;
      const GraphNode& child = graph_[ref.node];
      if (is_key && !child.value.is_scalar()) {
        construct_fail(child.value.region, "found unhashable key (a " + std::string(kind_name(child.value.kind)) +
                                               " cannot be a mapping key)");
      }
      parent.children.push_back(ref);
      return;
    }
    const GraphNode& node = graph_[ref.node];
    if (node.value.is_scalar()) {
      Node copy = node.value;
      place(std::move(copy), node.special);
      return;
    }
    Node copy;
    if (expand(ref, stack_.size(), copy)) place(std::move(copy), Special::None);
  }

  void on_scalar(const yaml_event_t& event) {
    const auto& data = event.data.scalar;
    Node node;
    node.region = mark_region(event.start_mark, event.end_mark);
    last_end_byte_ = node.region.end_byte;
    node.text.assign(reinterpret_cast<const char*>(data.value), data.length);
    node.plain = data.style == YAML_PLAIN_SCALAR_STYLE;
    const std::string_view tag = data.tag != nullptr ? reinterpret_cast<const char*>(data.tag) : "";
    const Special special = type_scalar(node, tag, data.plain_implicit != 0);
    if (data.anchor != nullptr && must_be_plain()) {
      gave_up_ = true;
      return;
    }
    if (data.anchor == nullptr && !in_graph()) {
      place(std::move(node), special);
      return;
    }
    const std::uint32_t index = new_graph_node();
    graph_[index].bytes = node.text.size();
    graph_[index].value = std::move(node);
    graph_[index].special = special;
    graph_[index].complete = true;
    if (!register_anchor(data.anchor, index, event.start_mark)) return;
    place_graph(Ref{index});
  }

  // Applies the explicit tag or PyYAML's implicit resolution, and the matching constructor.
  Special type_scalar(Node& node, std::string_view tag, bool plain_implicit) {
    node.kind = NodeKind::String;
    const bool core = tag.substr(0, kYamlTagPrefix.size()) == kYamlTagPrefix;
    const std::string_view name = core ? tag.substr(kYamlTagPrefix.size()) : std::string_view{};
    if (core && (name == "str" || name == "int" || name == "float" || name == "bool" || name == "null")) {
      construct_tagged(node, name, display_tag(tag));
      return Special::None;
    }
    if (core && (name == "map" || name == "seq")) {
      construct_fail(node.region, "expected a " + std::string(name == "map" ? "mapping" : "sequence") +
                                      " node, but found scalar (tag " + display_tag(tag) + ")");
      return Special::None;
    }
    if (core && name == "merge") return Special::Merge;
    if (core && name == "value") return Special::Value;
    if (!tag.empty() && tag != "!") node.tag = display_tag(tag);
    if (plain_implicit) return resolve_plain(node);
    // An unknown tag keeps the node's untagged reading (libyaml clears plain_implicit when a tag is written).
    if (!node.tag.empty() && node.plain) resolve_plain(node);
    return Special::None;
  }

  void construct_tagged(Node& node, std::string_view name, const std::string& shown) {
    if (name == "str") return;
    if (name == "null") {
      node.kind = NodeKind::Null;
      return;
    }
    if (name == "bool") {
      if (const std::optional<bool> b = construct_bool(node.text)) {
        node.kind = NodeKind::Bool;
        node.boolean = *b;
      } else {
        construct_fail(node.region, "invalid value for " + shown + ": '" + node.text + "'");
      }
      return;
    }
    const bool ok = name == "int" ? construct_int(node.text, node) : construct_float(node.text, node);
    if (!ok) construct_fail(node.region, "invalid value for " + shown + ": '" + node.text + "'");
  }

  Special resolve_plain(Node& node) {
    const std::string_view s = node.text;
    // Like PyYAML, pick the candidate resolvers by the first character; most scalars are words that need none.
    static constexpr std::string_view kCandidateStarts = "yYnNtTfFoO-+0123456789.~<=";
    if (!s.empty() && kCandidateStarts.find(s.front()) == std::string_view::npos) return Special::None;
    // PyYAML tries bool, float, int, merge, null, timestamp, value in that order; they cannot overlap.
    if (const std::optional<bool> b = match_bool(s)) {
      node.kind = NodeKind::Bool;
      node.boolean = *b;
    } else if (match_float(s)) {
      if (!construct_float(s, node)) construct_fail(node.region, "invalid float '" + node.text + "'");
    } else if (match_int(s)) {
      // e.g. `0b_` matches the resolver but int('', 2) raises.
      if (!construct_int(s, node)) construct_fail(node.region, "invalid int '" + node.text + "'");
    } else if (s == "<<") {
      return Special::Merge;
    } else if (match_null(s)) {
      node.kind = NodeKind::Null;
    } else if (s == "=") {
      return Special::Value;
    }
    // Timestamps (`2024-01-01`) load as datetime objects; the tree keeps them as strings.
    return Special::None;
  }

  void on_alias(const yaml_event_t& event) {
    if (must_be_plain()) {
      gave_up_ = true;
      return;
    }
    const source::Region at = mark_region(event.start_mark, event.end_mark);
    last_end_byte_ = at.end_byte;
    const std::string name(reinterpret_cast<const char*>(event.data.alias.anchor));
    const auto it = anchors_.find(name);
    if (it == anchors_.end()) {
      fail(at, "found undefined alias '" + name + "'");
      return;
    }
    const GraphNode& target = graph_[it->second];
    if (!target.complete) {
      fail(at, "found recursive alias '" + name + "' (a node containing an alias to itself)");
      return;
    }
    expanded_ += target.weight;
    expanded_bytes_ += target.bytes;
    if (expanded_ > kMaxAliasExpansionNodes) {
      fail(at, "aliases expand to more than " + std::to_string(kMaxAliasExpansionNodes) +
                   " nodes (an alias bomb?); stopped at alias '" + name + "'");
      return;
    }
    if (expanded_bytes_ > kMaxAliasExpansionBytes) {
      fail(at, "aliases expand to more than " + std::to_string(kMaxAliasExpansionBytes / (1024 * 1024)) +
                   " MiB of text (an alias bomb?); stopped at alias '" + name + "'");
      return;
    }
    if (stack_.size() + target.height > kMaxNestingDepth) {
      fail(at, "alias '" + name + "' nests the document deeper than " + std::to_string(kMaxNestingDepth) + " levels");
      return;
    }
    place_graph(Ref{it->second});
  }

  // The tag of a collection: `!!map`/`!!seq` are checked, scalar tags are errors, other tags are kept.
  std::string collection_tag(std::string_view tag, NodeKind kind, const source::Region& at) {
    if (tag.substr(0, kYamlTagPrefix.size()) != kYamlTagPrefix) {
      return tag.empty() || tag == "!" ? std::string() : display_tag(tag);
    }
    const std::string_view name = tag.substr(kYamlTagPrefix.size());
    if (name == "str" || name == "int" || name == "float" || name == "bool" || name == "null") {
      construct_fail(
          at, "expected a scalar node, but found " + std::string(kind_name(kind)) + " (tag " + display_tag(tag) + ")");
      return {};
    }
    if (name == "map" || name == "seq") {
      const NodeKind wanted = name == "map" ? NodeKind::Mapping : NodeKind::Sequence;
      if (kind != wanted) {
        construct_fail(
            at, "expected a " + std::string(kind_name(wanted)) + " node, but found " + std::string(kind_name(kind)));
      }
      return {};
    }
    return display_tag(tag);
  }

  void on_collection_start(const yaml_event_t& event, NodeKind kind, const yaml_char_t* anchor,
                           const yaml_char_t* tag_ptr, bool flow) {
    const source::Region start = mark_region(event.start_mark, event.end_mark);
    if (stack_.size() + 1 > kMaxNestingDepth) {
      fail(start, "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels");
      return;
    }
    Node node;
    node.kind = kind;
    node.region = start;
    node.tag = collection_tag(tag_ptr != nullptr ? reinterpret_cast<const char*>(tag_ptr) : "", kind, start);
    if ((anchor != nullptr || !node.tag.empty()) && must_be_plain()) {
      gave_up_ = true;
      return;
    }
    Frame frame;
    frame.flow = flow;
    if (anchor == nullptr && !in_graph()) {
      frame.drop = drops_children(kind, stack_.size());
      // Children collect in per-level scratch lists that keep their capacity, so each collection gets one
      // exactly sized allocation instead of a series of reallocations.
      const std::size_t level = stack_.size();
      if (entry_scratch_.size() <= level) {
        entry_scratch_.resize(level + 1);
        item_scratch_.resize(level + 1);
      }
      entry_scratch_[level].clear();
      item_scratch_[level].clear();
      frame.node = std::move(node);
      stack_.push_back(std::move(frame));
      return;
    }
    const std::uint32_t index = new_graph_node();
    graph_[index].value = std::move(node);
    if (!register_anchor(anchor, index, event.start_mark)) return;
    frame.graph = true;
    frame.graph_node = index;
    stack_.push_back(std::move(frame));
  }

  void on_collection_end(const yaml_event_t& event) {
    if (stack_.empty()) return;
    Frame frame = std::move(stack_.back());
    stack_.pop_back();
    Node& node = frame.graph ? graph_[frame.graph_node].value : frame.node;
    // A block collection ends where its last content ends, not at the next token libyaml looked at.
    const std::size_t end =
        std::max(frame.flow ? mark_to_byte(event.end_mark) : last_end_byte_, node.region.begin_byte);
    last_end_byte_ = end;
    node.region.end_byte = end;
    node.region.end = cursor_.at(end);
    if (!frame.graph && frame.drop) {
      frame.node.elided = true;
      if (!frame.keys.empty()) {
        std::sort(frame.keys.begin(), frame.keys.end());
        if (std::adjacent_find(frame.keys.begin(), frame.keys.end()) != frame.keys.end()) gave_up_ = true;
      }
      // A stub in a part that is itself left out carries no stub flag into the tree: it is dropped by place().
      place(std::move(frame.node), Special::None);
      return;
    }
    if (!frame.graph) {
      const std::size_t level = stack_.size();
      if (frame.node.kind == NodeKind::Sequence) {
        take_all(item_scratch_[level], frame.node.items);
      } else {
        if (!frame.merges.empty()) flatten_merges(entry_scratch_[level], frame.merges);
        take_all(entry_scratch_[level], frame.node.entries);
      }
      place(std::move(frame.node), Special::None);
      return;
    }
    GraphNode& done = graph_[frame.graph_node];
    if (done.value.kind == NodeKind::Mapping) flatten_graph_merges(frame.graph_node);
    std::uint64_t weight = 1;
    std::uint64_t bytes = 0;
    std::uint32_t height = 0;
    for (const Ref& child : graph_[frame.graph_node].children) {
      weight = std::min<std::uint64_t>(weight + graph_[child.node].weight, std::uint64_t{1} << 62U);
      bytes = std::min<std::uint64_t>(bytes + graph_[child.node].bytes, std::uint64_t{1} << 62U);
      height = std::max(height, graph_[child.node].height);
    }
    GraphNode& finished = graph_[frame.graph_node];
    finished.weight = weight;
    finished.bytes = bytes;
    finished.height = height + 1;
    finished.complete = true;
    place_graph(Ref{frame.graph_node});
  }

  template <typename T>
  static void take_all(std::vector<T>& scratch, std::vector<T>& out) {
    out.reserve(scratch.size());
    for (T& child : scratch) out.push_back(std::move(child));
    scratch.clear();
  }

  // SafeConstructor.flatten_mapping: `<<` entries are removed and the merged mappings' entries go first, so
  // explicit keys (later) win, and in `<<: [*a, *b]` the keys of a win over those of b.
  void flatten_merges(std::vector<Entry>& entries, const std::vector<std::size_t>& merge_indices) {
    std::vector<Entry> merged;
    std::vector<Entry> own;
    std::size_t next = 0;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      Entry& entry = entries[i];
      if (next >= merge_indices.size() || merge_indices[next] != i) {
        own.push_back(std::move(entry));
        continue;
      }
      ++next;
      Node& value = entry.value;
      if (value.kind == NodeKind::Mapping) {
        for (Entry& e : value.entries) merged.push_back(std::move(e));
      } else if (value.kind == NodeKind::Sequence) {
        for (const Node& item : value.items) {
          if (item.kind != NodeKind::Mapping) {
            construct_fail(item.region,
                           "expected a mapping for merging, but found " + std::string(kind_name(item.kind)));
          }
        }
        for (auto it = value.items.rbegin(); it != value.items.rend(); ++it) {
          for (Entry& e : it->entries) merged.push_back(std::move(e));
        }
      } else {
        construct_fail(value.region, "expected a mapping or list of mappings for merging, but found scalar");
      }
    }
    for (Entry& e : own) merged.push_back(std::move(e));
    entries = std::move(merged);
  }

  // The same on the graph, where merged entries stay references.
  void flatten_graph_merges(std::uint32_t index) {
    const std::vector<Ref> pairs = graph_[index].children;
    bool has_merge = false;
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
      if (graph_[pairs[i].node].special == Special::Merge) has_merge = true;
    }
    if (!has_merge) return;
    std::vector<Ref> merged;
    std::vector<Ref> own;
    const auto take = [&merged](const std::vector<Ref>& source) {
      merged.insert(merged.end(), source.begin(), source.end());
    };
    for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
      if (graph_[pairs[i].node].special != Special::Merge) {
        own.push_back(pairs[i]);
        own.push_back(pairs[i + 1]);
        continue;
      }
      const GraphNode& value = graph_[pairs[i + 1].node];
      if (value.value.kind == NodeKind::Mapping) {
        take(value.children);
      } else if (value.value.kind == NodeKind::Sequence) {
        std::vector<const GraphNode*> submerge;
        for (const Ref& item : value.children) {
          const GraphNode& sub = graph_[item.node];
          if (sub.value.kind != NodeKind::Mapping) {
            construct_fail(sub.value.region,
                           "expected a mapping for merging, but found " + std::string(kind_name(sub.value.kind)));
            continue;
          }
          submerge.push_back(&sub);
        }
        for (auto it = submerge.rbegin(); it != submerge.rend(); ++it) take((*it)->children);
      } else {
        construct_fail(value.value.region, "expected a mapping or list of mappings for merging, but found scalar");
      }
    }
    merged.insert(merged.end(), own.begin(), own.end());
    graph_[index].children = std::move(merged);
  }

  // Copies a graph node into Node form at nesting `depth` (the number of enclosing collections).
  bool expand(Ref ref, std::size_t depth, Node& out, bool is_key = false) {
    const GraphNode& node = graph_[ref.node];
    if (node.special != Special::None && !(is_key && node.special == Special::Value)) {
      special_misplaced(node.value, node.special);
      return false;
    }
    if (node.value.is_scalar()) {
      out = node.value;
      return true;
    }
    if (depth + 1 > kMaxNestingDepth) {  // guarded while composing; kept so expansion can never recurse deeper
      fail(node.value.region, "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels");
      return false;
    }
    out.kind = node.value.kind;
    out.region = node.value.region;
    out.tag = node.value.tag;
    const std::vector<Ref>& children = node.children;
    if (out.kind == NodeKind::Sequence) {
      out.items.resize(children.size());
      for (std::size_t i = 0; i < children.size(); ++i) {
        if (!expand(children[i], depth + 1, out.items[i])) return false;
      }
      return true;
    }
    out.entries.resize(children.size() / 2);
    for (std::size_t i = 0; i + 1 < children.size(); i += 2) {
      Entry& entry = out.entries[i / 2];
      if (!expand(children[i], depth + 1, entry.key, true)) return false;
      if (!expand(children[i + 1], depth + 1, entry.value)) return false;
    }
    return true;
  }

  const std::string& text_;
  detail::PositionCursor cursor_;
  ReadPolicy policy_;
  bool gave_up_ = false;
  std::size_t base_ = 0;        // bytes of a leading BOM, which libyaml never sees
  std::size_t mark_chars_ = 0;  // the last converted mark, as a character index and a byte offset
  std::size_t mark_byte_ = 0;
  std::size_t last_end_byte_ = 0;
  std::vector<Frame> stack_;
  std::vector<std::vector<Entry>> entry_scratch_;  // by nesting level: children of open direct collections
  std::vector<std::vector<Node>> item_scratch_;
  std::vector<GraphNode> graph_;
  std::unordered_map<std::string, std::uint32_t> anchors_;
  std::optional<Node> root_;
  std::uint64_t expanded_ = 0;
  std::uint64_t expanded_bytes_ = 0;
  int documents_ = 0;
  std::optional<ParseError> error_;
  std::optional<ParseError> extra_document_;
  std::optional<ParseError> construct_error_;
};

}  // namespace

ConfigDocument read_yaml(const source::SourceFile& file) {
  return YamlComposer(file).run();
}

std::optional<ConfigDocument> read_yaml(const source::SourceFile& file, const ReadPolicy& policy) {
  YamlComposer composer(file, policy);
  ConfigDocument doc = composer.run();
  if (composer.gave_up()) return std::nullopt;
  return doc;
}

}  // namespace lint::parse
