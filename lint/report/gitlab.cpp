// The `gitlab` format: a GitLab Code Quality report (docs.gitlab.com/ci/testing/code_quality, "Code Quality report
// format"): a JSON array of {description, check_name, fingerprint, severity, location: {path, lines: {begin}}}.
#include <fmt/format.h>

#include <map>

#include "lint/report/detail.hpp"
#include "lint/report/reporter.hpp"

namespace lint::report {

namespace {

using detail::Json;

/// Code Quality severities are info, minor, major, critical and blocker.
std::string_view gitlab_severity(rule::Severity s) {
  switch (s) {
    case rule::Severity::Error:
      return "major";
    case rule::Severity::Warning:
      return "minor";
    case rule::Severity::Info:
      return "info";
  }
  return "minor";
}

/// A path relative to the repository (the working directory of the CI job), as GitLab expects.
std::string relative_path(const ReportInput& in, const std::string& path) {
  if (!in.srcroot.empty() && path.starts_with(in.srcroot)) return path.substr(in.srcroot.size());
  return path;
}

}  // namespace

void write_gitlab(std::ostream& out, const ReportInput& in) {
  Json doc(Json::Array{});
  std::map<std::uint64_t, std::size_t> seen;
  for (const auto& d : detail::diagnostics_of(in)) {
    if (d.suppressed) continue;
    const std::string path = relative_path(in, d.path);
    Json issue(Json::Object{});
    issue.add("description", fmt::format("{} {}", d.code, d.message));
    issue.add("check_name", d.code);
    // Stable across edits that move the finding: the rule, the file and the setting (or message), numbered
    // when the same triple occurs twice. GitLab compares fingerprints between the base and the merge request.
    const std::string_view what = d.setting.empty() ? std::string_view(d.message) : std::string_view(d.setting);
    const std::uint64_t h = detail::fnv1a64(fmt::format("{}\n{}\n{}", d.code, path, what));
    issue.add("fingerprint", fmt::format("{:016x}{:04x}", h, seen[h]++));
    issue.add("severity", gitlab_severity(d.severity));
    Json lines(Json::Object{});
    lines.add("begin", d.region.valid() ? d.region.begin.line : 1U);
    if (d.region.valid()) {
      // A region that ends at column 1 of a later line ends on the line before.
      const std::uint32_t end = d.region.end.column <= 1 && d.region.end.line > d.region.begin.line
                                    ? d.region.end.line - 1
                                    : d.region.end.line;
      if (end > d.region.begin.line) lines.add("end", end);
    }
    Json location(Json::Object{});
    location.add("path", path);
    location.add("lines", std::move(lines));
    issue.add("location", std::move(location));
    doc.push(std::move(issue));
  }
  doc.write(out);
  out << '\n';
}

}  // namespace lint::report
