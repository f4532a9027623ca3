#include "lint/rule/rule.hpp"

namespace lint::rule {

std::string RuleInfo::summary() const {
  std::string_view rest = doc;
  bool seen_title = false;
  while (!rest.empty()) {
    const auto nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.empty()) continue;
    if (!seen_title && line.starts_with("# ")) {
      seen_title = true;
      continue;
    }
    return std::string(line);
  }
  return std::string(slug);
}

namespace {

/// A message is one line: a line break quoted from a file (a YAML value "A\n::error ...") is shown as `\n`, so it
/// can neither break a report's layout nor start a line of a CI log with a workflow command.
void one_line(std::string& message) {
  if (message.find_first_of("\r\n") == std::string::npos) return;
  std::string out;
  out.reserve(message.size() + 8);
  for (const char c : message) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else
      out += c;
  }
  message = std::move(out);
}

}  // namespace

void RuleContext::report(const std::string& path, const source::Region& region, std::string message,
                         std::vector<RelatedLocation> related, std::optional<Severity> severity, std::string setting) {
  report_fix(path, region, std::move(message), Fix{}, std::move(related), severity, std::move(setting));
}

void RuleContext::report_fix(const std::string& path, const source::Region& region, std::string message, Fix fix,
                             std::vector<RelatedLocation> related, std::optional<Severity> severity,
                             std::string setting) {
  Diagnostic d;
  d.code = std::string(info().code);
  d.slug = std::string(info().slug);
  d.severity = severity.value_or(info().default_severity);
  one_line(message);
  for (RelatedLocation& r : related) one_line(r.message);
  d.message = std::move(message);
  d.path = path;
  d.region = region;
  d.related = std::move(related);
  d.setting = std::move(setting);
  if (!fix.edits.empty()) d.fix = std::move(fix);
  emit(std::move(d));
}

}  // namespace lint::rule
