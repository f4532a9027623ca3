// The `junit` format: one test suite, one test case per file with problems, one <failure> per problem.
#include <fmt/format.h>

#include <map>

#include "lint/report/detail.hpp"
#include "lint/report/reporter.hpp"

namespace lint::report {

namespace {

/// Escapes text for XML 1.0 content or a double-quoted attribute. Characters XML 1.0 cannot hold (most C0
/// controls, invalid UTF-8, U+FFFE/U+FFFF) become U+FFFD; in attributes, tab and line breaks become references so
/// that attribute-value normalisation keeps them.
std::string xml_escape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const detail::Utf8Unit unit = detail::decode_utf8(text, i);
    const char32_t cp = unit.code_point;
    switch (cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += attribute ? "&quot;" : "\"";
        break;
      case '\'':
        out += attribute ? "&apos;" : "'";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        if (!unit.valid || cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF) {
          detail::append_utf8(out, 0xFFFD);
        } else {
          out.append(text.substr(i, unit.length));
        }
    }
    i += unit.length;
  }
  return out;
}

std::string attr(std::string_view text) {
  return xml_escape(text, true);
}

std::string where(const std::string& path, const source::Region& r) {
  if (!r.valid()) return path;
  return fmt::format("{}:{}:{}", path, r.begin.line, std::max<std::uint32_t>(r.begin.column, 1));
}

}  // namespace

void write_junit(std::ostream& out, const ReportInput& in) {
  const auto& diagnostics = detail::diagnostics_of(in);
  const detail::Counts counts = detail::count(diagnostics);

  // Files in first-seen order (the diagnostics are sorted by path); suppressed problems are not failures.
  std::vector<std::string> files;
  std::map<std::string, std::vector<const rule::Diagnostic*>> by_file;
  for (const auto& d : diagnostics) {
    if (d.suppressed) continue;
    auto [it, inserted] = by_file.try_emplace(d.path);
    if (inserted) files.push_back(d.path);
    it->second.push_back(&d);
  }

  const std::size_t tests = files.size();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format("<testsuites name=\"launchlint\" tests=\"{}\" failures=\"{}\" errors=\"0\">\n", tests, tests);
  out << fmt::format("  <testsuite name=\"launchlint\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"0\">\n",
                     tests, tests);
  out << "    <properties>\n";
  const auto property = [&out](std::string_view name, std::size_t value) {
    out << fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", name, value);
  };
  property("files_checked", in.files_checked);
  property("problems", counts.problems());
  property("errors", counts.errors);
  property("warnings", counts.warnings);
  property("infos", counts.infos);
  property("suppressed", counts.suppressed);
  out << "    </properties>\n";
  for (const auto& file : files) {
    out << fmt::format("    <testcase name=\"{}\" classname=\"launchlint\">\n", attr(file));
    for (const auto* d : by_file[file]) {
      const std::string location = where(d->path, d->region);
      out << fmt::format("      <failure message=\"{}\" type=\"{}\">{}: {} [{}] {}</failure>\n",
                         attr(fmt::format("{}: {} {}", location, d->code, d->message)), attr(d->code),
                         xml_escape(location, false), xml_escape(d->code, false), rule::to_string(d->severity),
                         xml_escape(d->message, false));
    }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n";
  out << "</testsuites>\n";
}

}  // namespace lint::report
