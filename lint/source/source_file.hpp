// Source text with a line index: the one place where byte offsets become 1-based line/column positions.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
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
///
/// A file read from disk can give its text and index back once its facts are extracted (release): the next use
/// reads the file again, and keeps the text only if it is still the content the facts came from (same size and
/// hash); a file changed since reads as empty and `unchanged()` is false, so no snippet ever shows other text than
/// the one the findings are about. Thread-safe: concurrent readers reload once.
class SourceFile {
 public:
  SourceFile(std::string path, std::string text);
  SourceFile(const SourceFile&) = delete;
  SourceFile& operator=(const SourceFile&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& text() const {
    ensure_loaded();
    return text_;
  }
  [[nodiscard]] std::size_t line_count() const {
    ensure_loaded();
    return index_->line_starts.size();
  }

  /// Drops the text and the line index of a file whose text is the content of `path` on disk (after a UTF-8 BOM,
  /// which is skipped again on reload); they are read again, up to `max_bytes`, when next needed.
  void release(std::uintmax_t max_bytes) const;
  /// Gives back again the text and index of a released file that a later use read back (a launch rule's snippet):
  /// nothing for a file never released or one changed since. Only while no one holds a reference to the text.
  void release_again() const;
  /// A file not read yet: read on first use, and its text kept only if its bytes (BOM included) have the SHA-256
  /// `sha256` (the result cache answers with these: lint/driver/cache.hpp).
  static std::shared_ptr<const SourceFile> deferred(std::string path, std::string sha256, std::uintmax_t max_bytes);
  /// False when the text was released and the file no longer holds it (its text then reads as empty).
  [[nodiscard]] bool unchanged() const {
    ensure_loaded();
    return !changed_;
  }

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
  void index() const;
  void ensure_loaded() const {
    if (released_.load(std::memory_order_acquire)) reload();
  }
  void reload() const;

  std::string path_;
  static constexpr std::size_t kBlock = 4096;

  /// The line index of the text held (one allocation, given back with the text: a run keeps every file's
  /// SourceFile, most of them released).
  struct Index {
    std::vector<std::size_t> line_starts;
    std::vector<std::uint32_t> block_columns;  ///< code points from its line's start to byte k * kBlock
  };

  // Mutable: a released file reloads behind const accessors (under reload_mutex_).
  mutable std::string text_;
  mutable std::unique_ptr<Index> index_;  ///< set whenever the text is held
  mutable std::size_t released_size_ = 0;
  mutable std::size_t released_hash_ = 0;
  mutable std::uintmax_t max_bytes_ = 0;
  std::unique_ptr<const std::string> expected_sha256_;  ///< deferred(): the content expected
  mutable std::atomic<bool> released_{false};
  mutable bool changed_ = false;
  /// The lock of this file's release and reload: one of a fixed set shared by all files (a run of many files does
  /// not hold a mutex per file). Never held while another file's is taken.
  [[nodiscard]] std::mutex& reload_mutex() const;
};

using SourcePtr = std::shared_ptr<const SourceFile>;

/// Sources by path. A key is a view of its value's own path (SourceFile::path), so a run of many files does not
/// hold every path twice: add entries with put_source only.
using SourceMap = std::map<std::string_view, SourcePtr, std::less<>>;

/// Adds `source` under its path, replacing an entry of the same path.
void put_source(SourceMap& sources, SourcePtr source);

/// Counts the code points in `text` (UTF-8 lead bytes; stray continuation bytes do not count).
std::uint32_t count_code_points(std::string_view text);

/// True when `text` is valid UTF-8.
bool is_valid_utf8(std::string_view text, std::size_t* first_bad = nullptr);

}  // namespace lint::source
