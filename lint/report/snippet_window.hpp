// The part of a long source line a snippet shows: a window around the region, so that a finding on a minified
// file of one 50 MB line prints a few hundred bytes, not the line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "lint/source/source_file.hpp"

namespace lint::report::detail {

/// Lines longer than this are shown as a window of this many bytes around the region.
inline constexpr std::size_t kMaxSnippetBytes = 240;
/// How much of the window lies before the region's start.
inline constexpr std::size_t kSnippetLead = 80;

struct LineWindow {
  std::string text;                 ///< the shown text, with `...` where the line is cut
  std::uint32_t column_shift = 0;   ///< subtract from a line's code-point column to get the column in `text`
};

/// The window of line `line` of `file` that shows code-point column `column` (1 for lines after a region's first).
/// Costs O(kMaxSnippetBytes) plus one position lookup, whatever the line's length.
inline LineWindow line_window(const source::SourceFile& file, std::uint32_t line, std::uint32_t column) {
  const std::string_view text = file.line_text(line);
  if (text.size() <= kMaxSnippetBytes) return LineWindow{std::string(text), 0};
  const auto lead_byte = [&](std::size_t i) {
    while (i > 0 && i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0U) == 0x80U) --i;
    return i;
  };
  const std::size_t start = file.line_start(line);
  const std::size_t anchor = file.byte_at(source::Position{line, column}) - start;
  const std::size_t from = lead_byte(anchor > kSnippetLead ? anchor - kSnippetLead : 0);
  const std::size_t to = from + kMaxSnippetBytes >= text.size() ? text.size() : lead_byte(from + kMaxSnippetBytes);
  LineWindow w;
  const std::uint32_t before = file.position_at(start + from).column - 1;  // code points cut on the left
  if (from > 0) w.text = "...";
  w.text.append(text.substr(from, to - from));
  if (to < text.size()) w.text += "...";
  // `...` takes three columns where `before` code points were.
  w.column_shift = from > 0 ? before - 3 : 0;
  return w;
}

}  // namespace lint::report::detail
