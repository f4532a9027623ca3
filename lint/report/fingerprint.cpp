// GitHub's primaryLocationLineHash, computed the way github/codeql-action (src/fingerprints.ts) computes it when
// it uploads a SARIF file without one, so that our value and the upload action's agree.
//
// The algorithm, in words: the file is decoded from UTF-8 (invalid sequences become U+FFFD) and read as UTF-16
// code units. Spaces and tabs are dropped, as is a LF right after a CR; a CR becomes LF. On the resulting
// sequence, followed by one end marker 0xFFFF and zero padding, every line gets the polynomial hash (base 37,
// modulo 2^64) of the 100 units that start at its first kept unit. The value is the hash in lowercase hex without
// leading zeros, a colon, and how many lines up to and including this one have the same hash.
#include <fmt/format.h>

#include <unordered_map>

#include "lint/report/detail.hpp"
#include "lint/report/reporter.hpp"

namespace lint::report {

namespace detail {

namespace {

constexpr std::size_t kWindow = 100;
constexpr std::uint64_t kBase = 37;
constexpr std::uint32_t kEndMarker = 0xFFFF;

/// The kept UTF-16 units of the text and the index in them where each line starts.
struct HashInput {
  std::vector<std::uint32_t> units;
  std::vector<std::size_t> line_starts;
};

class HashInputBuilder {
 public:
  void add(std::uint32_t unit) {
    if (unit == ' ' || unit == '\t' || (prev_cr_ && unit == '\n')) {
      prev_cr_ = false;
      return;
    }
    prev_cr_ = unit == '\r';
    if (prev_cr_) unit = '\n';
    if (at_line_start_) {
      at_line_start_ = false;
      input_.line_starts.push_back(input_.units.size());
    }
    if (unit == '\n') at_line_start_ = true;
    input_.units.push_back(unit);
  }

  HashInput finish() {
    add(kEndMarker);
    return std::move(input_);
  }

 private:
  HashInput input_;
  bool prev_cr_ = false;
  bool at_line_start_ = true;
};

HashInput prepare(std::string_view text) {
  HashInputBuilder builder;
  std::size_t i = 0;
  while (i < text.size()) {
    const Utf8Unit u = decode_utf8(text, i);
    i += u.length;
    const char32_t cp = u.code_point;
    if (cp >= 0x10000) {
      const char32_t v = cp - 0x10000;
      builder.add(0xD800 + (v >> 10));
      builder.add(0xDC00 + (v & 0x3FF));
    } else {
      builder.add(cp);
    }
  }
  return builder.finish();
}

}  // namespace

std::vector<std::string> line_hashes(std::string_view text) {
  const HashInput input = prepare(text);
  std::uint64_t base_pow_window = 1;
  for (std::size_t k = 0; k < kWindow; ++k) base_pow_window *= kBase;

  // Rolling hash over the units (zero beyond the end): after consuming unit j, `h` covers units j-99..j.
  const auto& units = input.units;
  auto unit_at = [&units](std::size_t j) -> std::uint64_t { return j < units.size() ? units[j] : 0; };
  std::vector<std::string> out;
  out.reserve(input.line_starts.size());
  std::unordered_map<std::uint64_t, std::size_t> seen;
  std::uint64_t h = 0;
  std::size_t next_line = 0;
  const std::size_t total = units.size() + kWindow;
  for (std::size_t j = 0; j < total && next_line < input.line_starts.size(); ++j) {
    h = h * kBase + unit_at(j) - (j >= kWindow ? base_pow_window * unit_at(j - kWindow) : 0);
    while (next_line < input.line_starts.size() && input.line_starts[next_line] + kWindow - 1 == j) {
      const std::size_t occurrence = ++seen[h];
      out.push_back(fmt::format("{:x}:{}", h, occurrence));
      ++next_line;
    }
  }
  return out;
}

}  // namespace detail

std::string primary_location_line_hash(const source::SourceFile& file, std::uint32_t line) {
  const auto hashes = detail::line_hashes(file.text());
  const std::size_t index = line == 0 ? 0 : line - 1;
  return index < hashes.size() ? hashes[index] : std::string{};
}

}  // namespace lint::report
