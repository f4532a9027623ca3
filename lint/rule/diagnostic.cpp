#include "lint/rule/diagnostic.hpp"

#include <tuple>

namespace lint::rule {

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "warning";
}

std::optional<Severity> parse_severity(std::string_view text) {
  if (text == "info" || text == "note") return Severity::Info;
  if (text == "warning") return Severity::Warning;
  if (text == "error") return Severity::Error;
  return std::nullopt;
}

bool operator<(const Diagnostic& a, const Diagnostic& b) {
  return std::tie(a.path, a.region.begin.line, a.region.begin.column, a.code, a.message) <
         std::tie(b.path, b.region.begin.line, b.region.begin.column, b.code, b.message);
}

}  // namespace lint::rule
