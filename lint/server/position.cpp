#include "lint/server/position.hpp"

#include <algorithm>

namespace lint::server {

namespace {

/// The length of the UTF-8 sequence that starts with `lead` (1 for a stray byte, so invalid text still advances).
std::size_t sequence_length(unsigned char lead) {
  if (lead >= 0xF0 && lead < 0xF8) return 4;
  if (lead >= 0xE0) return lead < 0xF0 ? 3 : 1;
  if (lead >= 0xC0) return 2;
  return 1;
}

std::size_t units(unsigned char lead, Encoding enc) {
  const std::size_t len = sequence_length(lead);
  if (enc == Encoding::Utf8) return len;
  return len == 4 ? 2 : 1;
}

/// The end of line `line` (1-based) without its terminator.
std::size_t line_end(const source::SourceFile& file, std::uint32_t line) {
  const std::string& t = file.text();
  std::size_t e = line < file.line_count() ? file.line_start(line + 1) : t.size();
  while (e > file.line_start(line) && (t[e - 1] == '\n' || t[e - 1] == '\r')) --e;
  return e;
}

}  // namespace

LspPosition position_of(const source::SourceFile& file, std::size_t byte, Encoding enc) {
  const std::string& t = file.text();
  byte = std::min(byte, t.size());
  const std::uint32_t line = t.empty() ? 1 : file.position_at(byte).line;
  std::size_t at = file.line_start(line);
  std::int64_t character = 0;
  while (at < byte) {
    character += static_cast<std::int64_t>(units(static_cast<unsigned char>(t[at]), enc));
    at += sequence_length(static_cast<unsigned char>(t[at]));
  }
  return LspPosition{static_cast<std::int64_t>(line) - 1, character};
}

std::size_t byte_of(const source::SourceFile& file, LspPosition pos, Encoding enc) {
  const std::string& t = file.text();
  if (pos.line < 0) return 0;
  if (static_cast<std::uint64_t>(pos.line) >= file.line_count()) return t.size();
  const auto line = static_cast<std::uint32_t>(pos.line + 1);
  std::size_t at = file.line_start(line);
  const std::size_t end = line_end(file, line);
  std::int64_t seen = 0;
  while (at < end && seen < pos.character) {
    seen += static_cast<std::int64_t>(units(static_cast<unsigned char>(t[at]), enc));
    at += sequence_length(static_cast<unsigned char>(t[at]));
  }
  return std::min(at, end);
}

}  // namespace lint::server
