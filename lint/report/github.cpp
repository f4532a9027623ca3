// The `github` format: GitHub Actions workflow commands (`::error file=…::…`), which the runner turns into
// annotations. The runner shows at most 10 annotations per level and step, so the most severe come first and the
// rest are summarised in one notice that points to the SARIF report.
#include <fmt/format.h>

#include <array>

#include "lint/report/detail.hpp"
#include "lint/report/reporter.hpp"

namespace lint::report {

namespace {

using detail::github_escape_data;
using detail::github_escape_property;

/// Annotations GitHub shows per level and step.
constexpr std::size_t kMaxPerLevel = 10;

std::string_view command(rule::Severity s) {
  switch (s) {
    case rule::Severity::Error:
      return "error";
    case rule::Severity::Warning:
      return "warning";
    case rule::Severity::Info:
      return "notice";
  }
  return "warning";
}

std::string annotation(const rule::Diagnostic& d) {
  const std::string path = detail::terminal_safe(d.path);
  std::string properties = fmt::format("file={}", github_escape_property(path));
  std::string where = path;
  if (d.region.valid()) {
    const source::Region& r = d.region;
    const std::uint32_t column = std::max<std::uint32_t>(r.begin.column, 1);
    // A region that ends at column 1 of a later line ends on the line before.
    const std::uint32_t end_line = r.end.line > r.begin.line && r.end.column <= 1 ? r.end.line - 1 : r.end.line;
    properties += fmt::format(",line={}", r.begin.line);
    if (end_line <= r.begin.line) {
      properties += fmt::format(",col={}", column);
      if (r.end.line == r.begin.line) {
        properties += fmt::format(",endLine={},endColumn={}", r.begin.line, std::max(r.end.column, column));
      }
    } else {
      // The runner drops an annotation that has columns on a multi-line span.
      properties += fmt::format(",endLine={}", end_line);
    }
    where += fmt::format(":{}:{}", r.begin.line, column);
  }
  properties +=
      fmt::format(",title={}", github_escape_property(detail::terminal_safe(fmt::format("{} {}", d.code, d.slug))));
  // Control characters other than line breaks would reach the log raw: replace them.
  const std::string message = detail::terminal_safe(fmt::format("{}: {} {}", where, d.code, d.message));
  return fmt::format("::{} {}::{}", command(d.severity), properties, github_escape_data(message));
}

}  // namespace

void write_github(std::ostream& out, const ReportInput& in) {
  // Errors first, then warnings, then notices; each group keeps the sorted order.
  constexpr std::array<rule::Severity, 3> kOrder = {rule::Severity::Error, rule::Severity::Warning,
                                                    rule::Severity::Info};
  const auto& diagnostics = detail::diagnostics_of(in);
  const detail::Counts counts = detail::count(diagnostics);
  std::size_t dropped = 0;
  for (const rule::Severity level : kOrder) {
    std::size_t total = 0;
    switch (level) {
      case rule::Severity::Error:
        total = counts.errors;
        break;
      case rule::Severity::Warning:
        total = counts.warnings;
        break;
      case rule::Severity::Info:
        total = counts.infos;
        break;
    }
    std::size_t limit = kMaxPerLevel;
    // The closing notice is itself a notice: keep room for it so that it is not the one dropped.
    if (level == rule::Severity::Info && total > 0 && (dropped > 0 || total > kMaxPerLevel)) limit = kMaxPerLevel - 1;
    std::size_t shown = 0;
    for (const auto& d : diagnostics) {
      if (d.suppressed || d.severity != level) continue;
      if (shown == limit) {
        ++dropped;
        continue;
      }
      out << annotation(d) << '\n';
      ++shown;
    }
  }
  if (dropped > 0) {
    out << "::notice::"
        << github_escape_data(
               fmt::format("launchlint: {} more {} not shown as annotations (GitHub shows at most {} per level); "
                           "upload the SARIF report (--format sarif) or see the text output for the full list.",
                           dropped, dropped == 1 ? "problem" : "problems", kMaxPerLevel))
        << '\n';
  }
}

}  // namespace lint::report
