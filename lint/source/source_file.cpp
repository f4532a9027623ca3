#include "lint/source/source_file.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>

#include "lint/source/read_file.hpp"
#include "lint/source/sha256.hpp"

namespace lint::source {

namespace {
bool is_continuation(unsigned char c) {
  return (c & 0xC0U) == 0x80U;
}
}  // namespace

std::uint32_t count_code_points(std::string_view text) {
  // Eight bytes at a time: a continuation byte has its top bit set and the next one clear. Positions are asked
  // for every call and argument of a Python file, so this loop is on the fact extraction's path.
  constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
  std::size_t i = 0;
  std::size_t continuations = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, text.data() + i, 8);
    // One bit per continuation byte, moved to the bottom of its byte; the multiplication sums the eight bytes.
    continuations += static_cast<std::size_t>((((w & ~(w << 1) & kHigh) >> 7) * 0x0101010101010101ULL) >> 56);
  }
  for (; i < text.size(); ++i) {
    if (is_continuation(static_cast<unsigned char>(text[i]))) ++continuations;
  }
  return static_cast<std::uint32_t>(text.size() - continuations);
}

bool is_valid_utf8(std::string_view text, std::size_t* first_bad) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80U) {
      ++i;
      // ASCII runs eight bytes at a time.
      while (i + 8 <= n) {
        std::uint64_t w = 0;
        std::memcpy(&w, text.data() + i, 8);
        if ((w & 0x8080808080808080ULL) != 0) break;
        i += 8;
      }
      continue;
    }
    if ((c & 0xE0U) == 0xC0U) {
      len = 2;
      cp = c & 0x1FU;
    } else if ((c & 0xF0U) == 0xE0U) {
      len = 3;
      cp = c & 0x0FU;
    } else if ((c & 0xF8U) == 0xF0U) {
      len = 4;
      cp = c & 0x07U;
    } else {
      if (first_bad != nullptr) *first_bad = i;
      return false;
    }
    if (i + len > n) {
      if (first_bad != nullptr) *first_bad = i;
      return false;
    }
    for (std::size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if (!is_continuation(cc)) {
        if (first_bad != nullptr) *first_bad = i;
        return false;
      }
      cp = (cp << 6U) | (cc & 0x3FU);
    }
    const bool overlong = (len == 2 && cp < 0x80U) || (len == 3 && cp < 0x800U) || (len == 4 && cp < 0x10000U);
    if (overlong || cp > 0x10FFFFU || (cp >= 0xD800U && cp <= 0xDFFFU)) {
      if (first_bad != nullptr) *first_bad = i;
      return false;
    }
    i += len;
  }
  return true;
}

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  index();
}

std::mutex& SourceFile::reload_mutex() const {
  static std::array<std::mutex, 64> locks;
  return locks[(reinterpret_cast<std::uintptr_t>(this) / alignof(SourceFile)) % locks.size()];
}

void SourceFile::release(std::uintmax_t max_bytes) const {
  const std::lock_guard<std::mutex> lock(reload_mutex());
  if (released_.load(std::memory_order_relaxed)) return;
  released_size_ = text_.size();
  released_hash_ = std::hash<std::string_view>{}(text_);
  max_bytes_ = max_bytes;
  std::string().swap(text_);
  index_.reset();
  released_.store(true, std::memory_order_release);
}

void SourceFile::release_again() const {
  const std::lock_guard<std::mutex> lock(reload_mutex());
  if (max_bytes_ == 0 || changed_ || released_.load(std::memory_order_relaxed)) return;
  // Unchanged: released_size_ and released_hash_ (or expected_sha256_) still describe the text.
  std::string().swap(text_);
  index_.reset();
  released_.store(true, std::memory_order_release);
}

std::shared_ptr<const SourceFile> SourceFile::deferred(std::string path, std::string sha256, std::uintmax_t max_bytes) {
  auto file = std::make_shared<SourceFile>(std::move(path), std::string());
  file->expected_sha256_ = std::make_unique<const std::string>(std::move(sha256));
  file->max_bytes_ = max_bytes;
  file->released_.store(true, std::memory_order_release);
  return file;
}

void SourceFile::reload() const {
  const std::lock_guard<std::mutex> lock(reload_mutex());
  if (!released_.load(std::memory_order_relaxed)) return;
  ReadResult read = read_regular_file(path_, max_bytes_);
  std::string text = read.text ? std::move(*read.text) : std::string();
  const bool expected = !expected_sha256_ || (read.text && sha256_hex(text) == *expected_sha256_);
  if (text.starts_with("\xEF\xBB\xBF")) text.erase(0, 3);
  changed_ =
      !read.text || !expected ||
      (!expected_sha256_ && (text.size() != released_size_ || std::hash<std::string_view>{}(text) != released_hash_));
  text_ = changed_ ? std::string() : std::move(text);
  index();
  released_.store(false, std::memory_order_release);
}

void SourceFile::index() const {
  if (!index_) index_ = std::make_unique<Index>();
  std::vector<std::size_t>& line_starts_ = index_->line_starts;
  std::vector<std::uint32_t>& block_columns_ = index_->block_columns;
  line_starts_.clear();
  block_columns_.clear();
  // Every input file gets one: two linear passes that memchr and a count per checkpoint, not a loop per byte.
  line_starts_.push_back(0);
  const std::size_t n = text_.size();
  const char* const data = text_.data();
  if (std::memchr(data, '\r', n) == nullptr) {
    for (const char* p = data; (p = static_cast<const char*>(std::memchr(p, '\n', n - (p - data)))) != nullptr; ++p)
      line_starts_.push_back(static_cast<std::size_t>(p - data) + 1);
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      const char c = text_[i];
      if (c == '\n') {
        line_starts_.push_back(i + 1);
      } else if (c == '\r') {
        if (i + 1 < n && text_[i + 1] == '\n') ++i;
        line_starts_.push_back(i + 1);
      }
    }
  }
  // The column at byte k * kBlock: code points from its line's start (the last line start at or before it).
  block_columns_.reserve(n / kBlock + 1);
  std::size_t line = 0;
  std::size_t previous = 0;
  std::uint32_t column = 0;
  for (std::size_t b = 0; b < n; b += kBlock) {
    while (line + 1 < line_starts_.size() && line_starts_[line + 1] <= b) ++line;
    const std::size_t start = line_starts_[line];
    if (b > 0 && start <= previous) {
      column += count_code_points(std::string_view(data + previous, b - previous));
    } else {
      column = count_code_points(std::string_view(data + start, b - start));
    }
    block_columns_.push_back(column);
    previous = b;
  }
}

std::size_t SourceFile::line_start(std::uint32_t line) const {
  ensure_loaded();
  const std::vector<std::size_t>& line_starts_ = index_->line_starts;
  if (line == 0) return 0;
  if (line > line_starts_.size()) return text_.size();
  return line_starts_[line - 1];
}

Position SourceFile::position_at(std::size_t byte) const {
  ensure_loaded();
  const std::vector<std::size_t>& line_starts_ = index_->line_starts;
  const std::vector<std::uint32_t>& block_columns_ = index_->block_columns;
  byte = std::min(byte, text_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), byte);
  const auto line_index = static_cast<std::size_t>(std::distance(line_starts_.begin(), it)) - 1;
  std::size_t from = line_starts_[line_index];
  std::uint32_t column = 1;
  if (byte - from > kBlock) {
    // The checkpoint at or before `byte` lies inside this line.
    from = byte / kBlock * kBlock;
    column += block_columns_[byte / kBlock];
  }
  const std::string_view rest(text_.data() + from, byte - from);
  return Position{static_cast<std::uint32_t>(line_index + 1), column + count_code_points(rest)};
}

Region SourceFile::region(std::size_t begin_byte, std::size_t end_byte) const {
  ensure_loaded();
  begin_byte = std::min(begin_byte, text_.size());
  end_byte = std::clamp(end_byte, begin_byte, text_.size());
  return Region{position_at(begin_byte), position_at(end_byte), begin_byte, end_byte};
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
  ensure_loaded();
  const std::vector<std::size_t>& line_starts_ = index_->line_starts;
  if (line == 0 || line > line_starts_.size()) return {};
  const std::size_t start = line_starts_[line - 1];
  std::size_t end = line < line_starts_.size() ? line_starts_[line] : text_.size();
  while (end > start && (text_[end - 1] == '\n' || text_[end - 1] == '\r')) --end;
  return {text_.data() + start, end - start};
}

Region SourceFile::line_region(std::uint32_t line) const {
  const std::size_t start = line_start(line);
  return region(start, start + line_text(line).size());
}

std::size_t SourceFile::byte_at(Position pos) const {
  ensure_loaded();
  const std::vector<std::uint32_t>& block_columns_ = index_->block_columns;
  const std::size_t start = line_start(pos.line);
  const std::string_view text = line_text(pos.line);
  std::uint32_t col = 1;
  std::size_t i = 0;
  if (text.size() > kBlock && pos.column > 1) {
    // Start from the last checkpoint of this line before the column (columns grow along the line).
    const std::size_t first = (start + kBlock - 1) / kBlock;  // the first checkpoint inside the line
    const std::size_t last = (start + text.size() - 1) / kBlock;
    std::size_t lo = first;
    std::size_t hi = last + 1;
    while (lo < hi) {  // the first checkpoint whose column is at or past the one asked for
      const std::size_t mid = lo + (hi - lo) / 2;
      if (block_columns_[mid] + 1 < pos.column) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo > first) {
      i = (lo - 1) * kBlock - start;
      col = block_columns_[lo - 1] + 1;
      while (i < text.size() && is_continuation(static_cast<unsigned char>(text[i]))) ++i;
    }
  }
  while (i < text.size() && col < pos.column) {
    ++i;
    while (i < text.size() && is_continuation(static_cast<unsigned char>(text[i]))) ++i;
    ++col;
  }
  return start + i;
}

void put_source(SourceMap& sources, SourcePtr source) {
  const std::string_view path = source->path();
  sources.erase(path);  // a replaced entry's key views the old source's path
  sources.emplace(path, std::move(source));
}

}  // namespace lint::source
