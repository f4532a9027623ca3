// JSON as Python's json.load reads it, by recursive descent with exact positions. The grammar and the error
// messages follow CPython's json module (the C scanner), so a finding says what the tool would say.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lint/parse/reader_support.hpp"
#include "lint/parse/readers.hpp"

namespace lint::parse {

namespace {

bool is_json_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class JsonParser {
 public:
  explicit JsonParser(const source::SourceFile& file, bool shallow = false)
      : text_(file.text()), cursor_(file), shallow_(shallow) {}

  ConfigDocument run() {
    ConfigDocument doc;
    doc.format = Format::Json;
    std::size_t bad = 0;
    if (!source::is_valid_utf8(text_, &bad)) {
      // json.load reads text: a file that is not UTF-8 fails before any JSON is looked at.
      doc.errors.push_back(
          ParseError{cursor_.char_region(bad), "invalid UTF-8 (byte " +
                                                   detail::describe_byte(static_cast<unsigned char>(text_[bad])) +
                                                   "): the file cannot be decoded as UTF-8"});
      return doc;
    }
    // A UTF-8 byte order mark is skipped (Python's json.loads would reject it on a str; editors add it).
    if (text_.size() >= 3 && text_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    skip_space();
    Node root;
    if (parse_value(root, 0)) {
      skip_space();
      if (pos_ != text_.size()) {
        fail_at(pos_, "Extra data");
      } else {
        doc.root = std::move(root);
        doc.has_root = true;
      }
    }
    if (error_) doc.errors.push_back(std::move(*error_));
    return doc;
  }

 private:
  [[nodiscard]] bool at_end() const { return pos_ >= text_.size(); }
  [[nodiscard]] char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skip_space() {
    while (pos_ < text_.size() && is_json_space(text_[pos_])) ++pos_;
  }

  bool looks_like_comment(std::size_t pos) const {
    return pos + 1 < text_.size() && text_[pos] == '/' && (text_[pos + 1] == '/' || text_[pos + 1] == '*');
  }

  // Records the first error (the load stops there, as json.load does) and returns false for `return fail(...)`.
  bool fail_at(std::size_t pos, std::string message) {
    if (!error_) {
      if (looks_like_comment(pos)) message += " (JSON does not allow comments)";
      error_ = ParseError{cursor_.char_region(pos), std::move(message)};
    }
    return false;
  }

  bool fail_region(std::size_t begin, std::size_t end, std::string message) {
    if (!error_) error_ = ParseError{cursor_.region(begin, end), std::move(message)};
    return false;
  }

  void finish(Node& node, std::size_t begin, source::Position begin_pos) {
    node.region = source::Region{begin_pos, cursor_.at(pos_), begin, pos_};
  }

  // Whether a collection at nesting `depth` (the root's is 1) keeps its children: ReadPolicy::shallow keeps
  // the root mapping and the mappings in it, and in those only scalars.
  [[nodiscard]] bool keeps_children(NodeKind kind, std::size_t depth) const {
    if (dropped_ > 0) return false;
    if (!shallow_) return true;
    return kind == NodeKind::Mapping && depth <= 2;
  }

  bool parse_value(Node& out, std::size_t depth) {
    if (at_end()) return fail_at(pos_, "Expecting value");
    const std::size_t begin = pos_;
    const source::Position begin_pos = cursor_.at(begin);
    switch (text_[pos_]) {
      case '{':
        return parse_object(out, depth + 1, begin, begin_pos);
      case '[':
        return parse_array(out, depth + 1, begin, begin_pos);
      case '"': {
        out.kind = NodeKind::String;
        if (!parse_string(out.text)) return false;
        finish(out, begin, begin_pos);
        return true;
      }
      default:
        break;
    }
    if (match_literal("null")) {
      out.kind = NodeKind::Null;
    } else if (match_literal("true")) {
      out.kind = NodeKind::Bool;
      out.boolean = true;
    } else if (match_literal("false")) {
      out.kind = NodeKind::Bool;
    } else if (match_literal("NaN")) {
      out.kind = NodeKind::Float;
      out.number = std::numeric_limits<double>::quiet_NaN();
    } else if (match_literal("Infinity")) {
      out.kind = NodeKind::Float;
      out.number = std::numeric_limits<double>::infinity();
    } else if (match_literal("-Infinity")) {
      out.kind = NodeKind::Float;
      out.number = -std::numeric_limits<double>::infinity();
    } else if (!parse_number(out)) {
      return fail_at(begin, "Expecting value");
    }
    out.plain = true;
    if (out.text.empty()) out.text.assign(text_, begin, pos_ - begin);
    finish(out, begin, begin_pos);
    return true;
  }

  bool match_literal(std::string_view word) {
    if (text_.compare(pos_, word.size(), word) != 0) return false;
    pos_ += word.size();
    return true;
  }

  // CPython's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, where an incomplete fraction or
  // exponent is simply not part of the number (the next check then reports the stray character).
  bool parse_number(Node& out) {
    std::size_t i = pos_;
    const std::size_t n = text_.size();
    if (i < n && text_[i] == '-') ++i;
    if (i < n && text_[i] >= '1' && text_[i] <= '9') {
      while (i < n && is_digit(text_[i])) ++i;
    } else if (i < n && text_[i] == '0') {
      ++i;
    } else {
      return false;
    }
    bool is_float = false;
    if (i + 1 < n && text_[i] == '.' && is_digit(text_[i + 1])) {
      is_float = true;
      i += 2;
      while (i < n && is_digit(text_[i])) ++i;
    }
    if (i < n && (text_[i] == 'e' || text_[i] == 'E')) {
      std::size_t j = i + 1;
      if (j < n && (text_[j] == '+' || text_[j] == '-')) ++j;
      const std::size_t digits = j;
      while (j < n && is_digit(text_[j])) ++j;
      if (j > digits) {
        is_float = true;
        i = j;
      }
    }
    const std::string_view literal(text_.data() + pos_, i - pos_);
    pos_ = i;
    out.text.assign(literal);
    const bool negative = literal.front() == '-';
    const std::string_view magnitude = negative ? literal.substr(1) : literal;
    if (!is_float) {
      std::int64_t value = 0;
      const auto [end, ec] = std::from_chars(literal.data(), literal.data() + literal.size(), value);
      if (ec == std::errc() && end == literal.data() + literal.size()) {
        out.kind = NodeKind::Int;
        out.integer = value;
        out.number = static_cast<double>(value);
        return true;
      }
      // Python ints are unbounded: keep the text, and an approximate value for comparisons.
    }
    out.kind = NodeKind::Float;
    const double v = detail::decimal_to_double(magnitude).value_or(std::numeric_limits<double>::quiet_NaN());
    out.number = negative ? -v : v;
    return true;
  }

  // Decodes a string token at pos_ (the opening quote) into `out`.
  bool parse_string(std::string& out) {
    const std::size_t quote = pos_;
    ++pos_;
    const std::size_t n = text_.size();
    while (true) {
      const std::size_t chunk = pos_;
      while (pos_ < n) {
        const auto c = static_cast<unsigned char>(text_[pos_]);
        if (c == '"' || c == '\\' || c < 0x20U) break;
        ++pos_;
      }
      out.append(text_, chunk, pos_ - chunk);
      if (pos_ >= n) return fail_at(quote, "Unterminated string starting here");
      const char c = text_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c != '\\') return fail_at(pos_, "Invalid control character in string");
      const std::size_t backslash = pos_;
      if (pos_ + 1 >= n) return fail_at(quote, "Unterminated string starting here");
      const char esc = text_[pos_ + 1];
      pos_ += 2;
      switch (esc) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!read_hex4(backslash, cp)) return false;
          if (cp >= 0xD800U && cp <= 0xDBFFU && pos_ + 1 < n && text_[pos_] == '\\' && text_[pos_ + 1] == 'u') {
            std::uint32_t low = 0;
            const std::size_t second = pos_;
            pos_ += 2;
            if (!read_hex4(second, low)) return false;
            if (low >= 0xDC00U && low <= 0xDFFFU) {
              cp = 0x10000U + (((cp - 0xD800U) << 10U) | (low - 0xDC00U));
            } else {
              // Not a pair: the first escape stands alone, the second is decoded on its own.
              detail::append_utf8(out, 0xFFFDU);
              cp = low;
            }
          }
          // A lone surrogate is legal for json.load but has no UTF-8 form: keep a replacement character.
          if (cp >= 0xD800U && cp <= 0xDFFFU) cp = 0xFFFDU;
          detail::append_utf8(out, cp);
          break;
        }
        default: {
          std::size_t end = backslash + 2;
          while (end < n && detail::is_utf8_continuation(static_cast<unsigned char>(text_[end]))) ++end;
          return fail_region(backslash, end, "Invalid \\escape");
        }
      }
    }
  }

  // Reads the four hex digits after `\u` (pos_ is just after the `u`).
  bool read_hex4(std::size_t backslash, std::uint32_t& cp) {
    cp = 0;
    for (int k = 0; k < 4; ++k) {
      const int h = pos_ < text_.size() ? hex_value(text_[pos_]) : -1;
      if (h < 0) {
        std::size_t end = pos_;
        while (end < text_.size() && detail::is_utf8_continuation(static_cast<unsigned char>(text_[end]))) ++end;
        return fail_region(backslash, end, "Invalid \\uXXXX escape");
      }
      cp = (cp << 4U) | static_cast<std::uint32_t>(h);
      ++pos_;
    }
    return true;
  }

  bool check_depth(std::size_t depth, std::size_t begin) {
    if (depth <= kMaxNestingDepth) return true;
    return fail_at(begin, "nesting deeper than " + std::to_string(kMaxNestingDepth) + " levels");
  }

  bool parse_array(Node& out, std::size_t depth, std::size_t begin, source::Position begin_pos) {
    if (!check_depth(depth, begin)) return false;
    out.kind = NodeKind::Sequence;
    const bool keep = keeps_children(out.kind, depth);
    if (!keep) {
      out.elided = true;
      ++dropped_;
    }
    const bool ok = parse_array_items(out, depth, keep);
    if (!keep) --dropped_;
    out.items.shrink_to_fit();  // a launch config's tree is kept for the run: no spare capacity
    if (ok) finish(out, begin, begin_pos);
    return ok;
  }

  bool parse_array_items(Node& out, std::size_t depth, bool keep) {
    ++pos_;
    skip_space();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      Node item;
      if (!parse_value(item, depth)) return false;
      if (keep) out.items.push_back(std::move(item));
      skip_space();
      const char c = peek();
      if (c == ']') {
        ++pos_;
        break;
      }
      if (c != ',' || at_end()) return fail_at(pos_, "Expecting ',' delimiter");
      const std::size_t comma = pos_;
      ++pos_;
      skip_space();
      if (peek() == ']') return fail_at(comma, "Illegal trailing comma before end of array");
    }
    return true;
  }

  bool parse_object(Node& out, std::size_t depth, std::size_t begin, source::Position begin_pos) {
    if (!check_depth(depth, begin)) return false;
    out.kind = NodeKind::Mapping;
    const bool keep = keeps_children(out.kind, depth);
    if (!keep) {
      out.elided = true;
      ++dropped_;
    }
    const bool ok = parse_object_entries(out, depth, keep);
    if (!keep) --dropped_;
    out.entries.shrink_to_fit();
    if (ok) finish(out, begin, begin_pos);
    return ok;
  }

  bool parse_object_entries(Node& out, std::size_t depth, bool keep) {
    ++pos_;
    skip_space();
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      if (peek() != '"' || at_end()) return fail_at(pos_, "Expecting property name enclosed in double quotes");
      Entry entry;
      const std::size_t key_begin = pos_;
      const source::Position key_pos = cursor_.at(key_begin);
      entry.key.kind = NodeKind::String;
      if (!parse_string(entry.key.text)) return false;
      finish(entry.key, key_begin, key_pos);
      skip_space();
      if (peek() != ':' || at_end()) return fail_at(pos_, "Expecting ':' delimiter");
      ++pos_;
      skip_space();
      if (!parse_value(entry.value, depth)) return false;
      if (keep) out.entries.push_back(std::move(entry));
      skip_space();
      const char c = peek();
      if (c == '}') {
        ++pos_;
        break;
      }
      if (c != ',' || at_end()) return fail_at(pos_, "Expecting ',' delimiter");
      const std::size_t comma = pos_;
      ++pos_;
      skip_space();
      if (peek() == '}') return fail_at(comma, "Illegal trailing comma before end of object");
    }
    return true;
  }

  const std::string& text_;
  detail::PositionCursor cursor_;
  std::size_t pos_ = 0;
  bool shallow_ = false;
  std::size_t dropped_ = 0;  // open collections whose children are not kept
  std::optional<ParseError> error_;
};

}  // namespace

ConfigDocument read_json(const source::SourceFile& file) {
  return JsonParser(file).run();
}

ConfigDocument read_json_shallow(const source::SourceFile& file) {
  return JsonParser(file, true).run();
}

}  // namespace lint::parse
