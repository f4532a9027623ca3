// Source text with a line index: the one place where byte offsets become 1-based line/column positions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lint::source {

/// A 1-based line and a 1-based column counted in Unicode code points.
struct Position {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  friend bool operator==(const Position&, const Position&) = default;
  friend auto operator<=>(const Position&, const Position&) = default;
};

/// A half-open span of a file: `end` is the position just after the last character (SARIF's endColumn).
struct Region {
  Position begin;
  Position end;
  std::size_t begin_byte = 0;
  std::size_t end_byte = 0;
  [[nodiscard]] bool valid() const { return begin.line > 0; }
  friend bool operator==(const Region&, const Region&) = default;
};

/// A file's text and the index from byte offsets to positions. Column counting treats every UTF-8 lead byte
/// as one code point, so invalid UTF-8 still maps to a position; CR, LF and CRLF all end a line. Every lookup
/// costs O(log lines + 4 KiB) whatever the length of the line: a checkpoint every 4 KiB of text holds the column
/// there, so a file of one long line does not make its positions quadratic.
class SourceFile {
 public:
  SourceFile(std::string path, std::string text);

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& text() const { return text_; }
  [[nodiscard]] std::size_t line_count() const { return line_starts_.size(); }

  /// The position of the character that starts at `byte` (clamped to the text).
  [[nodiscard]] Position position_at(std::size_t byte) const;
  /// The region covering bytes [begin, end).
  [[nodiscard]] Region region(std::size_t begin_byte, std::size_t end_byte) const;
  /// The region of a whole line (without its terminator).
  [[nodiscard]] Region line_region(std::uint32_t line) const;
  /// The text of a 1-based line, without its terminator.
  [[nodiscard]] std::string_view line_text(std::uint32_t line) const;
  /// The byte offset where a 1-based line starts.
  [[nodiscard]] std::size_t line_start(std::uint32_t line) const;
  /// The byte offset of a (line, code-point column) position; the inverse of position_at.
  [[nodiscard]] std::size_t byte_at(Position pos) const;

 private:
  std::string path_;
  std::string text_;
  static constexpr std::size_t kBlock = 4096;

  std::vector<std::size_t> line_starts_;
  std::vector<std::uint32_t> block_columns_;  ///< code points from its line's start to byte k * kBlock
};

using SourcePtr = std::shared_ptr<const SourceFile>;

/// Counts the code points in `text` (UTF-8 lead bytes; stray continuation bytes do not count).
std::uint32_t count_code_points(std::string_view text);

/// True when `text` is valid UTF-8.
bool is_valid_utf8(std::string_view text, std::size_t* first_bad = nullptr);

}  // namespace lint::source
