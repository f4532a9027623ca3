// `--statistics` and `launchlint rule` in text or JSON (the only formats these listings have).
#include <map>

#include "lint/report/detail.hpp"
#include "lint/report/reporter.hpp"

namespace lint::report {

namespace {

using detail::Json;

Json rule_json(const rule::RuleInfo& r, bool with_doc) {
  Json o(Json::Object{});
  o.add("code", r.code);
  o.add("slug", r.slug);
  o.add("area", r.area);
  o.add("severity", rule::to_string(r.default_severity));
  o.add("summary", r.summary());
  if (with_doc) o.add("doc", r.doc);
  return o;
}

}  // namespace

bool listing_supports(Format format) { return format == Format::Text || format == Format::Json; }

void write_statistics(Format format, std::ostream& out, const ReportInput& in) {
  std::map<std::string, std::size_t> counts;
  for (const auto& d : detail::diagnostics_of(in)) {
    if (!d.suppressed) ++counts[d.code];
  }
  if (format == Format::Json) {
    Json doc(Json::Object{});
    doc.add("version", kJsonVersion);
    Json rows(Json::Array{});
    for (const auto& r : *in.rules) {
      auto it = counts.find(std::string(r.code));
      if (it == counts.end()) continue;
      Json row(Json::Object{});
      row.add("code", r.code);
      row.add("slug", r.slug);
      row.add("count", static_cast<std::uint64_t>(it->second));
      rows.push(std::move(row));
    }
    doc.add("statistics", std::move(rows));
    doc.write(out);
    out << '\n';
    return;
  }
  for (const auto& r : *in.rules) {
    auto it = counts.find(std::string(r.code));
    if (it != counts.end()) out << it->second << "\t" << r.code << "\t" << r.slug << "\n";
  }
}

void write_rules(Format format, std::ostream& out, const std::vector<const rule::RuleInfo*>& rules, bool full) {
  if (format == Format::Json) {
    Json doc(Json::Array{});
    for (const rule::RuleInfo* r : rules) doc.push(rule_json(*r, true));
    doc.write(out);
    out << '\n';
    return;
  }
  for (const rule::RuleInfo* r : rules) {
    if (full) {
      out << r->doc;
      if (!r->doc.ends_with("\n")) out << "\n";
    } else {
      out << r->code << "  " << r->slug << "  [" << rule::to_string(r->default_severity) << "]  " << r->summary()
          << "\n";
    }
  }
}

}  // namespace lint::report
