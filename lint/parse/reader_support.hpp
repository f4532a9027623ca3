// Helpers shared by the config loaders (internal to lint/parse): turning the positions the parsers produce into
// Regions without rescanning long lines, and number conversion with Python's results.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lint/source/source_file.hpp"

namespace lint::parse::detail {

inline bool is_utf8_continuation(unsigned char c) {
  return (c & 0xC0U) == 0x80U;
}

/// Byte offset -> Position with the same answers as SourceFile::position_at, but O(distance) from the previous
/// query instead of O(line length): a minified JSON line of 50 MB would otherwise make positions quadratic.
class PositionCursor {
 public:
  explicit PositionCursor(const source::SourceFile& file) : file_(file) { next_line_begin_ = line_begin_after(1); }

  /// The position of the character starting at `byte` (clamped to the text).
  source::Position at(std::size_t byte) {
    const std::string& text = file_.text();
    if (byte > text.size()) byte = text.size();
    if (byte < line_begin_) {
      // A jump back to an earlier line: rare (YAML block ends, merged keys), so rebuild from the index.
      const source::Position p = file_.position_at(byte);
      line_ = p.line;
      line_begin_ = file_.line_start(line_);
      next_line_begin_ = line_begin_after(line_);
      byte_ = byte;
      column_ = p.column;
      return p;
    }
    while (byte >= next_line_begin_) {
      ++line_;
      line_begin_ = next_line_begin_;
      next_line_begin_ = line_begin_after(line_);
      byte_ = line_begin_;
      column_ = 1;
    }
    if (byte >= byte_) {
      for (std::size_t i = byte_; i < byte; ++i) {
        if (!is_utf8_continuation(static_cast<unsigned char>(text[i]))) ++column_;
      }
    } else {
      for (std::size_t i = byte; i < byte_; ++i) {
        if (!is_utf8_continuation(static_cast<unsigned char>(text[i]))) --column_;
      }
    }
    byte_ = byte;
    return source::Position{line_, column_};
  }

  /// The region of bytes [begin, end).
  source::Region region(std::size_t begin, std::size_t end) {
    const std::size_t size = file_.text().size();
    if (begin > size) begin = size;
    if (end < begin) end = begin;
    if (end > size) end = size;
    const source::Position b = at(begin);
    const source::Position e = at(end);
    return source::Region{b, e, begin, end};
  }

  /// The region of the one character at `byte` (empty at the end of the text), for error carets.
  source::Region char_region(std::size_t byte) {
    const std::string& text = file_.text();
    std::size_t end = byte < text.size() ? byte + 1 : byte;
    while (end < text.size() && is_utf8_continuation(static_cast<unsigned char>(text[end]))) ++end;
    return region(byte, end);
  }

 private:
  std::size_t line_begin_after(std::uint32_t line) const {
    return line < file_.line_count() ? file_.line_start(line + 1) : std::numeric_limits<std::size_t>::max();
  }

  const source::SourceFile& file_;
  std::uint32_t line_ = 1;
  std::size_t line_begin_ = 0;
  std::size_t next_line_begin_ = 0;
  std::size_t byte_ = 0;
  std::uint32_t column_ = 1;
};

/// (line, code-point column) -> byte offset, for parsers that report positions rather than offsets (toml++).
/// Long lines get a sparse index of checkpoints, so queries in any order stay cheap.
class ByteLocator {
 public:
  explicit ByteLocator(const source::SourceFile& file) : file_(file) {}

  std::size_t byte_at(source::Position pos) {
    const std::string_view line = file_.line_text(pos.line);
    const std::size_t start = file_.line_start(pos.line);
    if (pos.column <= 1 || line.empty()) return start;
    std::size_t i = 0;
    std::uint32_t col = 1;
    if (line.size() > kLongLine) {
      const std::vector<std::size_t>& marks = checkpoints(pos.line, line);
      const std::size_t k = std::min<std::size_t>((pos.column - 1) / kStride, marks.size() - 1);
      i = marks[k];
      col = static_cast<std::uint32_t>(k * kStride + 1);
    }
    while (i < line.size() && col < pos.column) {
      ++i;
      while (i < line.size() && is_utf8_continuation(static_cast<unsigned char>(line[i]))) ++i;
      ++col;
    }
    return start + i;
  }

 private:
  static constexpr std::size_t kLongLine = 1024;
  static constexpr std::size_t kStride = 64;

  // marks[k] is the offset in the line of code point k * kStride (0-based).
  const std::vector<std::size_t>& checkpoints(std::uint32_t line_no, std::string_view line) {
    auto [it, inserted] = long_lines_.try_emplace(line_no);
    if (inserted) {
      std::vector<std::size_t>& marks = it->second;
      std::size_t count = 0;
      for (std::size_t i = 0; i < line.size(); ++i) {
        if (is_utf8_continuation(static_cast<unsigned char>(line[i]))) continue;
        if (count % kStride == 0) marks.push_back(i);
        ++count;
      }
      if (marks.empty()) marks.push_back(0);
    }
    return it->second;
  }

  const source::SourceFile& file_;
  std::unordered_map<std::uint32_t, std::vector<std::size_t>> long_lines_;
};

/// Python's float() of an unsigned decimal literal (`1.5`, `1.`, `.5`, `1e-5`): correctly rounded, overflow to
/// infinity and underflow to zero as Python does (std::from_chars reports both as out of range).
inline std::optional<double> decimal_to_double(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  double value = 0.0;
  const char* first = digits.data();
  const char* last = digits.data() + digits.size();
  const auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
  if (ptr != last) return std::nullopt;
  if (ec == std::errc::result_out_of_range) {
    const std::size_t e = digits.find_first_of("eE");
    const bool tiny = e != std::string_view::npos && e + 1 < digits.size() && digits[e + 1] == '-';
    return tiny ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (ec != std::errc()) return std::nullopt;
  return value;
}

/// Appends code point `cp` as UTF-8.
inline void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80U) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800U) {
    out += static_cast<char>(0xC0U | (cp >> 6U));
    out += static_cast<char>(0x80U | (cp & 0x3FU));
  } else if (cp < 0x10000U) {
    out += static_cast<char>(0xE0U | (cp >> 12U));
    out += static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU));
    out += static_cast<char>(0x80U | (cp & 0x3FU));
  } else {
    out += static_cast<char>(0xF0U | (cp >> 18U));
    out += static_cast<char>(0x80U | ((cp >> 12U) & 0x3FU));
    out += static_cast<char>(0x80U | ((cp >> 6U) & 0x3FU));
    out += static_cast<char>(0x80U | (cp & 0x3FU));
  }
}

/// "byte 0xFF" style description of the first byte of an invalid UTF-8 sequence.
inline std::string describe_byte(unsigned char c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string s = "0x";
  s += kHex[c >> 4U];
  s += kHex[c & 0xFU];
  return s;
}

}  // namespace lint::parse::detail
