// Integers read from text, one way everywhere in lint/: std::from_chars (no locale, no exceptions).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace lint::parse {

/// A base-10 integer as Python's int() reads a launcher argument or an environment variable: optional surrounding
/// ASCII whitespace and one leading sign, then digits only; nullopt for anything else or on overflow.
inline std::optional<std::int64_t> parse_int(std::string_view text) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
  while (!text.empty() && space(text.front())) text.remove_prefix(1);
  while (!text.empty() && space(text.back())) text.remove_suffix(1);
  if (text.starts_with('+')) text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return std::nullopt;
  std::int64_t n = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, n);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return n;
}

}  // namespace lint::parse
