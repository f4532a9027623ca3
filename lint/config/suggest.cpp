#include "lint/config/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace lint::config {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool istarts_with(std::string_view s, std::string_view prefix) {
  if (prefix.size() > s.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (lower(s[i]) != lower(prefix[i])) return false;
  }
  return true;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme suffice for transpositions. Words here are short (flags, codes, keys).
  std::vector<std::size_t> prev2(b.size() + 1);
  std::vector<std::size_t> prev(b.size() + 1);
  std::vector<std::size_t> cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    std::swap(prev2, prev);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates) {
  if (word.empty()) return std::nullopt;
  const std::size_t limit = std::max<std::size_t>(1, word.size() / 3);
  std::optional<std::string> best;
  std::size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    // The distance is at least the difference of the lengths: a candidate that cannot be closer is not compared
    // (a 100 KB argument against every rule code would cost 100 KB x code x codes).
    const std::size_t gap = word.size() > c.size() ? word.size() - c.size() : c.size() - word.size();
    if (gap >= best_distance) continue;
    const std::size_t d = edit_distance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  if (best) return best;
  if (word.size() >= 2) {
    for (const std::string& c : candidates) {
      if (istarts_with(c, word)) return c;
    }
  }
  return std::nullopt;
}

std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates) {
  const auto c = closest(word, candidates);
  return c ? " (did you mean '" + *c + "'?)" : "";
}

namespace {

/// Appends `text` with control characters written as escapes.
void append_escaped(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      out += "\\x";
      out += kHex[c >> 4U];
      out += kHex[c & 0xfU];
    } else {
      out += ch;
    }
  }
}

/// The longest prefix of `text` of at most `max_bytes` bytes that does not end inside a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t n = max_bytes;
  while (n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0U) == 0x80U) --n;
  return text.substr(0, n);
}

/// The longest suffix of `text` of at most `max_bytes` bytes that does not start inside a UTF-8 sequence.
std::string_view utf8_suffix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t from = text.size() - max_bytes;
  while (from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0U) == 0x80U) ++from;
  return text.substr(from);
}

}  // namespace

std::string shown_value(std::string_view value) {
  std::string out;
  append_escaped(out, utf8_prefix(value, kMaxShownValue));
  if (value.size() > kMaxShownValue) out += "... (" + std::to_string(value.size()) + " bytes)";
  return out;
}

std::string bounded_message(std::string_view message) {
  std::string out;
  if (message.size() <= kMaxMessage) {
    append_escaped(out, message);
    return out;
  }
  const std::string_view head = utf8_prefix(message, kMaxMessage * 3 / 4);
  const std::string_view tail = utf8_suffix(message, kMaxMessage / 4);
  append_escaped(out, head);
  out += "... (" + std::to_string(message.size() - head.size() - tail.size()) + " bytes not shown) ...";
  append_escaped(out, tail);
  return out;
}

}  // namespace lint::config
