// The human formats: `text` (ruff-like, with source snippets) and `concise` (one line per diagnostic).
#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <thread>
#include <vector>

#include "lint/driver/parallel.hpp"
#include "lint/report/detail.hpp"
#include "lint/report/reporter.hpp"
#include "lint/report/snippet_window.hpp"

namespace lint::report {

namespace {

using detail::terminal_safe;

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kBold = "\x1b[1m";
constexpr std::string_view kRed = "\x1b[1;31m";
constexpr std::string_view kYellow = "\x1b[1;33m";
constexpr std::string_view kCyan = "\x1b[1;36m";
constexpr std::string_view kBlue = "\x1b[1;34m";
constexpr std::string_view kDim = "\x1b[2m";

/// The most source lines shown for one multi-line region.
constexpr std::uint32_t kMaxSnippetLines = 4;

class Painter {
 public:
  explicit Painter(bool color) : color_(color) {}
  [[nodiscard]] std::string paint(std::string_view style, std::string_view text) const {
    if (!color_ || text.empty()) return std::string(text);
    return fmt::format("{}{}{}", style, text, kReset);
  }

 private:
  bool color_;
};

std::string_view severity_style(rule::Severity s) {
  switch (s) {
    case rule::Severity::Error:
      return kRed;
    case rule::Severity::Warning:
      return kYellow;
    case rule::Severity::Info:
      return kCyan;
  }
  return kYellow;
}

/// `path:line:col` or `path` for a whole-file location.
std::string location_text(const Painter& p, const std::string& path, const source::Region& region) {
  std::string out = p.paint(kBold, terminal_safe(path));
  if (region.valid()) out += fmt::format(":{}:{}", region.begin.line, std::max<std::uint32_t>(region.begin.column, 1));
  return out;
}

/// `path:line:col: CODE [severity] message` (and ` (suppressed)`), without a newline.
std::string header(const Painter& p, const rule::Diagnostic& d) {
  const std::string_view style = severity_style(d.severity);
  std::string out = location_text(p, d.path, d.region);
  out += ": ";
  out += p.paint(style, terminal_safe(d.code));
  out += ' ';
  out += p.paint(style, fmt::format("[{}]", rule::to_string(d.severity)));
  out += ' ';
  out += terminal_safe(d.message);
  if (d.suppressed) out += ' ' + p.paint(kDim, "(suppressed)");
  return out;
}

/// The last line a region covers (a region ending at column 1 of a line ends on the line before).
std::uint32_t last_line(const source::Region& r) {
  if (r.end.line <= r.begin.line) return r.begin.line;
  if (r.end.column <= 1) return r.end.line - 1;
  return r.end.line;
}

/// Writes the source lines of `region` with a gutter and a marker row (`marker` repeated) under the region's part
/// of its first line.
void write_snippet(std::ostream& out, const Painter& p, const source::SourceFile& file, const source::Region& region,
                   char marker, std::string_view marker_style) {
  const std::uint32_t first = region.begin.line;
  if (first == 0 || first > file.line_count()) return;
  const std::uint32_t last = std::min<std::uint32_t>(last_line(region), static_cast<std::uint32_t>(file.line_count()));
  const std::uint32_t shown_last = std::min(last, first + kMaxSnippetLines - 1);
  const std::size_t width = fmt::formatted_size("{}", shown_last);
  const std::string pad(width, ' ');
  const std::string bar = p.paint(kBlue, "|");

  out << pad << ' ' << bar << '\n';
  for (std::uint32_t line = first; line <= shown_last; ++line) {
    // Long lines show a window around the region; columns shift with it.
    const detail::LineWindow window = detail::line_window(file, line, line == first ? region.begin.column : 1);
    const detail::DisplayLine shown = detail::render_line(window.text);
    const auto col = [&](std::uint32_t c) { return c > window.column_shift ? c - window.column_shift : 1; };
    out << p.paint(kBlue, fmt::format("{:>{}}", line, width)) << ' ' << bar;
    if (!shown.text.empty()) out << ' ' << shown.text;
    out << '\n';
    if (line != first) continue;
    const std::size_t start = shown.offset(col(std::max<std::uint32_t>(region.begin.column, 1)));
    std::size_t end = shown.width();
    if (region.end.line == first) end = std::min(end, shown.offset(col(region.end.column)));
    const std::size_t count = end > start ? end - start : 1;
    out << pad << ' ' << bar << ' ' << std::string(start, ' ') << p.paint(marker_style, std::string(count, marker))
        << '\n';
  }
  if (shown_last < last) out << pad << ' ' << bar << ' ' << p.paint(kDim, "...") << '\n';
}

void write_summary(std::ostream& out, const Painter& p, const detail::Counts& counts, bool any_printed,
                   const ReportInput& in) {
  if (!in.summary) return;
  if (any_printed) out << '\n';
  out << p.paint(kBold, detail::summary_line(counts)) << '\n';
}

}  // namespace

void write_text(std::ostream& out, const ReportInput& in) {
  const Painter p(in.color);
  const auto& diagnostics = detail::diagnostics_of(in);
  // Findings are rendered a block at a time, the blocks of a round in parallel (reading a file again for its
  // snippets and laying them out is most of a report's cost), then written in order: the same bytes whatever `jobs`
  // is. The texts a round read are given back before the next (read again if a later round quotes the same file),
  // so the report holds a few files' texts, not those of every file with a finding.
  constexpr std::size_t kBlock = 64;
  const unsigned jobs = in.jobs != 0 ? in.jobs : std::max(1U, std::thread::hardware_concurrency());
  const std::size_t round = std::size_t{4} * jobs;
  std::vector<std::string> blocks(round);
  const auto render = [&](std::size_t b) {
    std::ostringstream block;
    for (std::size_t i = b * kBlock; i < std::min(diagnostics.size(), (b + 1) * kBlock); ++i) {
      const auto& d = diagnostics[i];
      if (i > 0) block << '\n';
      block << header(p, d) << '\n';
      if (const auto* file = detail::find_source(in, d.path); file != nullptr && d.region.valid()) {
        write_snippet(block, p, *file, d.region, '^', severity_style(d.severity));
      }
      for (const auto& rel : d.related) {
        block << "  " << p.paint(kBlue, "=") << ' ' << p.paint(kBold, "note") << ": "
              << location_text(p, rel.path, rel.region) << ": " << terminal_safe(rel.message) << '\n';
        if (const auto* file = detail::find_source(in, rel.path); file != nullptr && rel.region.valid()) {
          write_snippet(block, p, *file, rel.region, '-', kBlue);
        }
      }
    }
    return std::move(block).str();
  };
  const std::size_t block_count = (diagnostics.size() + kBlock - 1) / kBlock;
  for (std::size_t from = 0; from < block_count; from += round) {
    const std::size_t n = std::min(round, block_count - from);
    driver::parallel_region(n, jobs, [&](std::size_t k) { blocks[k] = render(from + k); });
    for (std::size_t k = 0; k < n; ++k) {
      out << blocks[k];
      std::string().swap(blocks[k]);
    }
    for (std::size_t i = from * kBlock; i < std::min(diagnostics.size(), (from + n) * kBlock); ++i) {
      detail::release_source(in, diagnostics[i].path);
      for (const auto& rel : diagnostics[i].related) detail::release_source(in, rel.path);
    }
  }
  write_summary(out, p, detail::count(diagnostics), !diagnostics.empty(), in);
}

void write_concise(std::ostream& out, const ReportInput& in) {
  const Painter p(in.color);
  const auto& diagnostics = detail::diagnostics_of(in);
  for (const auto& d : diagnostics) {
    std::string line = header(p, d);
    std::replace(line.begin(), line.end(), '\n', ' ');
    out << line << '\n';
  }
  write_summary(out, p, detail::count(diagnostics), !diagnostics.empty(), in);
}

}  // namespace lint::report
