// TOML through toml++, behind a lexical guard. Debian's toml++ 3.3.0 reaches __builtin_unreachable when its
// whitespace classifier sees certain non-ASCII code points (marzer/tomlplusplus#190, #295) and asserts on some
// control characters; TOML only allows non-ASCII inside strings and comments anyway. So the guard lexes the
// text the way toml++ will and rejects, before toml++ runs: invalid UTF-8, control characters, non-ASCII
// anywhere toml++ would classify it, and nesting beyond kMaxNestingDepth (toml++ recurses and destroys
// recursively).
#include <toml++/toml.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lint/parse/reader_support.hpp"
#include "lint/parse/readers.hpp"

namespace lint::parse {

namespace {

struct GuardError {
  std::size_t byte;
  std::string message;
};

std::string depth_message() {
  return "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels";
}

// Lexes the text as toml++ will and stops at the first byte toml++ must not see. Where toml++ is certain to
// stop with its own error first (a line break inside a single-line string, end of input inside a string), the
// guard stops checking: toml++ reads no further, and its message is the better one.
class TomlGuard {
 public:
  /// `headers`, when given, receives the start of each line that holds a table header (check_toml_in_pieces).
  TomlGuard(std::string_view text, std::size_t begin, std::vector<std::size_t>* headers = nullptr)
      : text_(text), i_(begin), begin_(begin), headers_(headers) {}

  std::optional<GuardError> run() {
    while (i_ < text_.size() && !stopped_ && !error_) step();
    return std::move(error_);
  }

 private:
  enum class Mode : std::uint8_t { Statement, Header, Key, Value };

  struct Open {
    bool inline_table;
    std::uint32_t depth;       // the Node depth of this array or inline table
    bool key_mode;             // inline table: reading a key (before its '=')
    std::uint32_t components;  // inline table: components of the current dotted key
  };

  bool fail(std::size_t at, std::string message) {
    if (!error_) error_ = GuardError{at, std::move(message)};
    return false;
  }

  // Checks the byte at i_ for characters TOML forbids everywhere; folds CRLF. Returns false on error.
  bool check_control(unsigned char c) {
    if (c == '\r') {
      if (i_ + 1 < text_.size() && text_[i_ + 1] == '\n') return true;
      return fail(i_, "carriage return not followed by a line feed (TOML allows CR only in CRLF)");
    }
    if ((c < 0x20U && c != '\t' && c != '\n') || c == 0x7FU) {
      return fail(i_, "control character U+00" + detail::describe_byte(c).substr(2) + " is not allowed in TOML");
    }
    return true;
  }

  std::uint32_t value_parent() const {
    if (open_.empty()) return top_parent_;
    const Open& o = open_.back();
    return o.inline_table ? o.depth + o.components - 1 : o.depth;
  }

  bool check_depth(std::uint64_t depth, std::size_t at) {
    return depth <= kMaxNestingDepth || fail(at, depth_message());
  }

  void step() {
    const auto c = static_cast<unsigned char>(text_[i_]);
    if (c >= 0x80U) {
      fail(i_, "non-ASCII character outside a string or comment");
      return;
    }
    if (!check_control(c)) return;
    if (c == '\r') {
      ++i_;  // the LF of the CRLF is handled next
      return;
    }
    if (c == '#') {
      skip_comment();
      return;
    }
    if ((c == '"' || c == '\'') && string_ok_) {
      lex_string(static_cast<char>(c));
      string_ok_ = false;
      return;
    }
    structural(static_cast<char>(c));
    ++i_;
  }

  void structural(char c) {
    if (c == '\n') {
      if (open_.empty()) mode_ = Mode::Statement;
      string_ok_ = true;
      return;
    }
    if (c == ' ' || c == '\t') {
      string_ok_ = true;
      return;
    }
    switch (mode_) {
      case Mode::Statement:
        if (c == '[') {
          if (headers_ != nullptr) {
            const std::size_t nl = text_.rfind('\n', i_);
            headers_->push_back(nl == std::string_view::npos || nl < begin_ ? begin_ : nl + 1);
          }
          array_of_tables_ = i_ + 1 < text_.size() && text_[i_ + 1] == '[';
          if (array_of_tables_) ++i_;
          mode_ = Mode::Header;
          components_ = 1;
          string_ok_ = true;
          return;
        }
        mode_ = Mode::Key;
        components_ = 1;
        key_char(c);
        return;
      case Mode::Header:
        if (c == '.') {
          ++components_;
          string_ok_ = true;
        } else if (c == ']') {
          table_depth_ = 1 + components_ + (array_of_tables_ ? 1 : 0);
          if (!check_depth(table_depth_, i_)) return;
          if (array_of_tables_ && i_ + 1 < text_.size() && text_[i_ + 1] == ']') ++i_;
          mode_ = Mode::Value;
          top_parent_ = table_depth_;
          string_ok_ = false;
        } else {
          string_ok_ = false;
        }
        return;
      case Mode::Key:
        key_char(c);
        return;
      case Mode::Value:
        value_char(c);
        return;
    }
  }

  void key_char(char c) {
    if (c == '.') {
      ++components_;
      string_ok_ = true;
    } else if (c == '=') {
      // Dotted keys create one table per component before the last.
      top_parent_ = table_depth_ + components_ - 1;
      if (!check_depth(top_parent_, i_)) return;
      mode_ = Mode::Value;
      string_ok_ = true;
    } else {
      string_ok_ = false;
    }
  }

  void value_char(char c) {
    if (!open_.empty() && open_.back().inline_table && open_.back().key_mode) {
      Open& o = open_.back();
      if (c == '.') {
        ++o.components;
        string_ok_ = true;
      } else if (c == '=') {
        o.key_mode = false;
        if (!check_depth(static_cast<std::uint64_t>(o.depth) + o.components - 1, i_)) return;
        string_ok_ = true;
      } else if (c == '}') {
        open_.pop_back();
        string_ok_ = false;
      } else {
        string_ok_ = false;
      }
      return;
    }
    switch (c) {
      case '[':
      case '{': {
        if (!string_ok_) return;  // inside a bare token (`1[`): toml++ scans on to a terminator, no nesting
        const std::uint32_t depth = value_parent() + 1;
        if (!check_depth(depth, i_)) return;
        open_.push_back(Open{c == '{', depth, c == '{', 1});
        string_ok_ = true;
        return;
      }
      case ']':
      case '}':
        if (!open_.empty()) open_.pop_back();
        string_ok_ = false;
        return;
      case ',':
        if (!open_.empty() && open_.back().inline_table) {
          open_.back().key_mode = true;
          open_.back().components = 1;
        }
        string_ok_ = true;
        return;
      default:
        // Part of a bare value: toml++ scans such a token up to a value terminator, quotes included, so a
        // quote here does not open a string.
        string_ok_ = false;
        return;
    }
  }

  void skip_comment() {
    ++i_;
    while (i_ < text_.size() && text_[i_] != '\n') {
      const auto c = static_cast<unsigned char>(text_[i_]);
      if (c < 0x80U && !check_control(c)) return;
      ++i_;
    }
  }

  // Counts the run of `quote` characters at i_.
  std::size_t quote_run(char quote) const {
    std::size_t k = i_;
    while (k < text_.size() && text_[k] == quote) ++k;
    return k - i_;
  }

  void lex_string(char quote) {
    if (quote_run(quote) >= 3) {
      i_ += 3;
      lex_multi_line(quote);
    } else {
      ++i_;
      lex_single_line(quote);
    }
  }

  void lex_single_line(char quote) {
    while (i_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[i_]);
      if (c == '\n' || c == '\r') {
        stopped_ = true;  // toml++: unterminated string (control character)
        return;
      }
      if (c < 0x80U && !check_control(c)) return;
      if (c == static_cast<unsigned char>(quote)) {
        ++i_;
        return;
      }
      if (c == '\\' && quote == '"') {
        ++i_;  // in a single-line string the escaped character is never classified as whitespace
        if (i_ < text_.size()) {
          const auto e = static_cast<unsigned char>(text_[i_]);
          if (e == '\n' || e == '\r') {
            stopped_ = true;
            return;
          }
          if (e < 0x80U && !check_control(e)) return;
          ++i_;
        }
        continue;
      }
      ++i_;
    }
    stopped_ = true;  // end of input inside the string
  }

  void lex_multi_line(char quote) {
    bool skipping = false;  // after a line-ending backslash: toml++ classifies each character as whitespace
    while (i_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[i_]);
      if (c >= 0x80U) {
        if (skipping) {
          fail(i_,
               "non-ASCII character starting the line after a line-ending backslash in a multi-line string "
               "(toml++ 3.3 cannot read it safely; put an ASCII character first)");
          return;
        }
        ++i_;
        continue;
      }
      if (!check_control(c)) return;
      if (c == static_cast<unsigned char>(quote)) {
        const std::size_t run = quote_run(quote);
        if (run >= 3) {
          i_ += std::min<std::size_t>(run, 5);  // toml++ takes up to two quotes into the string
          return;
        }
        i_ += run;
        skipping = false;
        continue;
      }
      if (c == '\\' && quote == '"') {
        skipping = false;
        ++i_;
        if (!escape_in_multi_line(skipping)) return;
        continue;
      }
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') skipping = false;
      ++i_;
    }
    stopped_ = true;
  }

  // After a backslash in a multi-line basic string (i_ at the escaped character). toml++ asks whether the
  // escaped character is whitespace, and for a line-ending backslash skips whitespace by classifying each
  // character: non-ASCII there is exactly the crash of tomlplusplus#190.
  bool escape_in_multi_line(bool& skipping) {
    if (i_ >= text_.size()) {
      stopped_ = true;
      return false;
    }
    const auto e = static_cast<unsigned char>(text_[i_]);
    if (e >= 0x80U) {
      return fail(i_, "non-ASCII character right after a backslash in a multi-line string (not a TOML escape)");
    }
    if (e != ' ' && e != '\t' && e != '\n' && e != '\r') {
      if (!check_control(e)) return false;
      ++i_;  // an ordinary escape; \u digits are checked with ASCII-only tests
      return true;
    }
    while (i_ < text_.size() && (text_[i_] == ' ' || text_[i_] == '\t')) ++i_;
    if (i_ < text_.size() && static_cast<unsigned char>(text_[i_]) >= 0x80U) {
      return fail(i_, "non-ASCII character after a line-ending backslash in a multi-line string");
    }
    if (i_ >= text_.size() || (text_[i_] != '\n' && text_[i_] != '\r')) {
      stopped_ = true;  // toml++: the backslash must end the line
      return false;
    }
    skipping = true;
    return true;
  }

  std::string_view text_;
  std::size_t i_;
  std::size_t begin_;
  std::vector<std::size_t>* headers_;
  bool stopped_ = false;
  std::optional<GuardError> error_;
  Mode mode_ = Mode::Statement;
  bool string_ok_ = true;  // toml++ would read a quote at this point as the start of a string
  bool array_of_tables_ = false;
  std::uint32_t components_ = 0;
  std::uint32_t table_depth_ = 1;  // the Node depth of the current [table]
  std::uint32_t top_parent_ = 1;   // the Node depth of what holds a top-level value
  std::vector<Open> open_;
};

class TomlConverter {
 public:
  TomlConverter(const source::SourceFile& file, std::size_t bom) : file_(file), bom_(bom), locator_(file) {}

  bool convert(const toml::node& node, std::size_t depth, Node& out) {
    out.region = region_of(node.source());
    switch (node.type()) {
      case toml::node_type::table: {
        if (!enter(depth, out.region)) return false;
        out.kind = NodeKind::Mapping;
        const toml::table& table = *node.as_table();
        // toml++ keeps keys sorted; the tree keeps them in document order.
        std::vector<std::pair<const toml::key*, const toml::node*>> members;
        members.reserve(table.size());
        for (auto&& [key, value] : table) members.emplace_back(&key, &value);
        std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
          const toml::source_position& pa = a.first->source().begin;
          const toml::source_position& pb = b.first->source().begin;
          return pa.line != pb.line ? pa.line < pb.line : pa.column < pb.column;
        });
        out.entries.resize(members.size());
        for (std::size_t k = 0; k < members.size(); ++k) {
          Entry& entry = out.entries[k];
          entry.key.kind = NodeKind::String;
          entry.key.text = std::string(members[k].first->str());
          entry.key.region = region_of(members[k].first->source());
          const std::string_view written = slice(entry.key.region);
          entry.key.plain = written.empty() || (written.front() != '"' && written.front() != '\'');
          if (!convert(*members[k].second, depth + 1, entry.value)) return false;
        }
        return true;
      }
      case toml::node_type::array: {
        if (!enter(depth, out.region)) return false;
        out.kind = NodeKind::Sequence;
        const toml::array& array = *node.as_array();
        out.items.resize(array.size());
        for (std::size_t k = 0; k < array.size(); ++k) {
          if (!convert(array[k], depth + 1, out.items[k])) return false;
        }
        return true;
      }
      case toml::node_type::string:
        out.kind = NodeKind::String;
        out.text = node.as_string()->get();
        return true;
      case toml::node_type::integer:
        out.kind = NodeKind::Int;
        out.integer = node.as_integer()->get();
        out.number = static_cast<double>(out.integer);
        break;
      case toml::node_type::floating_point:
        out.kind = NodeKind::Float;
        out.number = node.as_floating_point()->get();
        break;
      case toml::node_type::boolean:
        out.kind = NodeKind::Bool;
        out.boolean = node.as_boolean()->get();
        break;
      default:  // dates and times: kept as written
        out.kind = NodeKind::String;
        break;
    }
    out.plain = true;
    out.text = std::string(slice(out.region));
    return true;
  }

  source::Region point_region(const toml::source_position& pos) {
    const source::Position p = position_of(pos);
    const std::size_t byte = locator_.byte_at(p);
    std::size_t end = byte < file_.text().size() ? byte + 1 : byte;
    while (end < file_.text().size() && detail::is_utf8_continuation(static_cast<unsigned char>(file_.text()[end]))) {
      ++end;
    }
    return source::Region{p, file_.position_at(end), byte, end};
  }

  std::optional<ParseError> error;

 private:
  bool enter(std::size_t depth, const source::Region& region) {
    if (depth + 1 <= kMaxNestingDepth) return true;
    if (!error) error = ParseError{region, depth_message()};
    return false;
  }

  // toml++ positions are 1-based code points, counted after a BOM it skipped (we strip it before parsing).
  source::Position position_of(const toml::source_position& pos) const {
    if (pos.line == 0) return source::Position{1, 1 + (bom_ > 0 ? 1U : 0U)};
    const std::uint32_t shift = pos.line == 1 && bom_ > 0 ? 1 : 0;
    return source::Position{pos.line, pos.column + shift};
  }

  source::Region region_of(const toml::source_region& region) {
    const source::Position b = position_of(region.begin);
    const source::Position e = region.end.line == 0 ? b : position_of(region.end);
    const std::size_t bb = locator_.byte_at(b);
    const std::size_t eb = std::max(bb, locator_.byte_at(e));
    return source::Region{b, e < b ? b : e, bb, eb};
  }

  std::string_view slice(const source::Region& region) const {
    return std::string_view(file_.text()).substr(region.begin_byte, region.end_byte - region.begin_byte);
  }

  const source::SourceFile& file_;
  std::size_t bom_;
  detail::ByteLocator locator_;
};

/// The key path of the table header at the start of `line`, and whether it is an array of tables (`[[...]]`);
/// nothing for a header this does not read (a basic string key with an escape).
std::optional<std::pair<std::vector<std::string>, bool>> header_path(std::string_view line) {
  std::size_t i = 0;
  const auto space = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  };
  space();
  if (i >= line.size() || line[i] != '[') return std::nullopt;
  ++i;
  const bool array = i < line.size() && line[i] == '[';
  if (array) ++i;
  std::vector<std::string> path;
  for (;;) {
    space();
    if (i >= line.size()) return std::nullopt;
    const char c = line[i];
    if (c == '"' || c == '\'') {
      const std::size_t close = line.find(c, i + 1);
      if (close == std::string_view::npos) return std::nullopt;
      const std::string_view key = line.substr(i + 1, close - i - 1);
      if (key.find('\n') != std::string_view::npos || (c == '"' && key.find('\\') != std::string_view::npos)) {
        return std::nullopt;
      }
      path.emplace_back(key);
      i = close + 1;
    } else {
      const std::size_t start = i;
      while (i < line.size() && ((line[i] >= 'A' && line[i] <= 'Z') || (line[i] >= 'a' && line[i] <= 'z') ||
                                 (line[i] >= '0' && line[i] <= '9') || line[i] == '_' || line[i] == '-')) {
        ++i;
      }
      if (i == start) return std::nullopt;
      path.emplace_back(line.substr(start, i - start));
    }
    space();
    if (i < line.size() && line[i] == '.') {
      ++i;
      continue;
    }
    if (i < line.size() && line[i] == ']' && (!array || (i + 1 < line.size() && line[i + 1] == ']'))) break;
    return std::nullopt;
  }
  return std::make_pair(std::move(path), array);
}

/// Whether a toml++ tree nests no deeper than a full read converts (TomlConverter::enter).
bool within_depth(const toml::node& node, std::size_t depth) {
  if (const toml::table* t = node.as_table()) {
    if (depth + 1 > kMaxNestingDepth) return false;
    for (auto&& [key, value] : *t) {
      if (!within_depth(value, depth + 1)) return false;
    }
  } else if (const toml::array* a = node.as_array()) {
    if (depth + 1 > kMaxNestingDepth) return false;
    for (const toml::node& item : *a) {
      if (!within_depth(item, depth + 1)) return false;
    }
  }
  return true;
}

/// What the pieces read so far define at one key path, for the checks across pieces that toml++ makes on a whole
/// file: a table defined twice, a header through a key of a table, an array of tables extended by a header.
struct PathUse {
  bool table = false;                        ///< defined by a `[table]` header (or the root)
  bool array = false;                        ///< defined by `[[array]]` headers
  std::unordered_set<std::string> keys;      ///< keys its `[table]` section defines itself
  std::unordered_set<std::string> children;  ///< next components of longer header paths through it
};

std::string path_key(const std::vector<std::string>& path, std::size_t count) {
  std::string out;
  for (std::size_t k = 0; k < count; ++k) {
    out += std::to_string(path[k].size());
    out += ':';
    out += path[k];
  }
  return out;
}

/// The UTF-8 and lexical checks of read_toml: their error, if any.
std::optional<ParseError> precheck_toml(const source::SourceFile& file, std::size_t bom,
                                        std::vector<std::size_t>* headers) {
  const std::string& text = file.text();
  detail::PositionCursor cursor(file);
  std::size_t bad = 0;
  if (!source::is_valid_utf8(text, &bad)) {
    return ParseError{cursor.char_region(bad),
                      "invalid UTF-8 (byte " + detail::describe_byte(static_cast<unsigned char>(text[bad])) + ")"};
  }
  if (std::optional<GuardError> guard = TomlGuard(text, bom, headers).run()) {
    return ParseError{cursor.char_region(guard->byte), std::move(guard->message)};
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<ParseError>> check_toml_in_pieces(const source::SourceFile& file, std::size_t piece_bytes) {
  const std::string& text = file.text();
  const std::size_t bom = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  std::vector<std::size_t> starts;
  if (std::optional<ParseError> error = precheck_toml(file, bom, &starts)) {
    return std::vector<ParseError>{std::move(*error)};
  }
  // Sections: the root's (from the start), then one per header line.
  const bool root_section = starts.empty() || starts.front() != bom;
  if (root_section) starts.insert(starts.begin(), bom);
  std::vector<std::uint32_t> lines;  // 1-based line of each section's start
  lines.reserve(starts.size());
  std::uint32_t line = 1;
  std::size_t counted = bom;
  for (const std::size_t at : starts) {
    line += static_cast<std::uint32_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(counted),
                                                  text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    counted = at;
    lines.push_back(line);
  }
  piece_bytes = std::max<std::size_t>(piece_bytes, 1);
  std::unordered_map<std::string, PathUse> uses;
  std::size_t first = 0;
  while (first < starts.size()) {
    std::size_t end = first + 1;
    while (end < starts.size() && starts[end] - starts[first] < piece_bytes) ++end;
    const std::size_t end_byte = end < starts.size() ? starts[end] : text.size();
    toml::table piece;
    try {
      piece = toml::parse(std::string_view(text).substr(starts[first], end_byte - starts[first]));
    } catch (const toml::parse_error&) {
      return std::nullopt;  // its error is reported by a full read, which sees what came before
    }
    if (!within_depth(piece, 0)) return std::nullopt;
    for (std::size_t s = first; s < end; ++s) {
      // The section's own keys: those of its table written on its lines (not those a later header implies).
      const std::uint32_t from = lines[s] - lines[first] + 1;
      const std::uint32_t to =
          s + 1 < end ? lines[s + 1] - lines[first] + 1 : std::numeric_limits<std::uint32_t>::max();
      std::vector<std::string> path;
      bool array = false;
      if (s != 0 || !root_section) {
        const std::size_t nl = text.find('\n', starts[s]);
        auto header = header_path(
            std::string_view(text).substr(starts[s], nl == std::string::npos ? std::string::npos : nl - starts[s]));
        if (!header) return std::nullopt;
        path = std::move(header->first);
        array = header->second;
      }
      for (std::size_t q = 0; q < path.size(); ++q) {
        PathUse& prefix = uses[path_key(path, q)];
        if (prefix.array || prefix.keys.count(path[q]) != 0) return std::nullopt;
        prefix.children.insert(path[q]);
      }
      PathUse& use = uses[path_key(path, path.size())];
      if (array) {
        if (use.table || !use.children.empty()) return std::nullopt;
        use.array = true;
        continue;
      }
      if (use.table || use.array) return std::nullopt;
      use.table = true;
      const toml::table* table = &piece;
      for (const std::string& component : path) {
        const toml::node* child = table->get(component);
        table = child != nullptr ? child->as_table() : nullptr;
        if (table == nullptr) return std::nullopt;
      }
      for (auto&& [key, value] : *table) {
        const std::uint32_t at = key.source().begin.line;
        if (at < from || at >= to) continue;
        if (use.children.count(std::string(key.str())) != 0) return std::nullopt;
        use.keys.emplace(key.str());
      }
    }
    first = end;
  }
  return std::vector<ParseError>{};
}

ConfigDocument read_toml(const source::SourceFile& file) {
  ConfigDocument doc;
  doc.format = Format::Toml;
  const std::string& text = file.text();
  const std::size_t bom = text.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  if (std::optional<ParseError> error = precheck_toml(file, bom, nullptr)) {
    doc.errors.push_back(std::move(*error));
    return doc;
  }
  TomlConverter converter(file, bom);
  try {
    const toml::table table = toml::parse(std::string_view(text).substr(bom));
    Node root;
    if (converter.convert(table, 0, root)) {
      doc.root = std::move(root);
      doc.has_root = true;
    } else {
      doc.errors.push_back(std::move(*converter.error));
    }
  } catch (const toml::parse_error& e) {
    doc.errors.push_back(ParseError{converter.point_region(e.source().begin), std::string(e.description())});
  }
  return doc;
}

}  // namespace lint::parse
