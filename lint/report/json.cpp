// The `json` format: {"version": 1, "files_checked": N, "diagnostics": [...]}, keys in a fixed order; described by
// docs/schema/launchlint-output.schema.json.
#include "lint/report/detail.hpp"
#include "lint/report/reporter.hpp"

namespace lint::report {

namespace {

using detail::Json;

/// `{row, column}`, or null for a whole-file location.
Json position(const source::Region& region, const source::Position& pos) {
  if (!region.valid()) return nullptr;
  Json out(Json::Object{});
  out.add("row", pos.line);
  out.add("column", pos.column);
  return out;
}

Json diagnostic_json(const rule::Diagnostic& d, const std::string& url) {
  Json out(Json::Object{});
  out.add("code", d.code);
  out.add("slug", d.slug);
  out.add("severity", rule::to_string(d.severity));
  out.add("message", d.message);
  out.add("filename", d.path);
  out.add("location", position(d.region, d.region.begin));
  out.add("end_location", position(d.region, d.region.end));
  Json related(Json::Array{});
  for (const auto& rel : d.related) {
    Json r(Json::Object{});
    r.add("filename", rel.path);
    r.add("location", position(rel.region, rel.region.begin));
    r.add("end_location", position(rel.region, rel.region.end));
    r.add("message", rel.message);
    related.push(std::move(r));
  }
  out.add("related", std::move(related));
  out.add("url", url.empty() ? Json(nullptr) : Json(url));
  out.add("suppressed", d.suppressed);
  out.add("setting", d.setting.empty() ? Json(nullptr) : Json(d.setting));
  return out;
}

}  // namespace

void write_json(std::ostream& out, const ReportInput& in) {
  Json list(Json::Array{});
  for (const auto& d : detail::diagnostics_of(in)) {
    std::string url;
    if (in.rules != nullptr && !in.docs_url.empty()) {
      for (const auto& r : *in.rules) {
        if (r.code == d.code) url = rule_url(in.docs_url, r.area, r.slug);
      }
    }
    list.push(diagnostic_json(d, url));
  }
  Json doc(Json::Object{});
  doc.add("version", kJsonVersion);
  doc.add("files_checked", static_cast<std::uint64_t>(in.files_checked));
  doc.add("diagnostics", std::move(list));
  doc.write(out);
  out << '\n';
}

}  // namespace lint::report
