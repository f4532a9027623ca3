// The `sarif` format: SARIF 2.1.0 as GitHub code scanning ingests it ("SARIF support for code scanning",
// https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning),
// clean under `sarif-multitool validate --rule-kind "Sarif;Gh"`.
#include <fmt/format.h>

#include <map>
#include <unordered_map>

#include "lint/report/detail.hpp"
#include "lint/report/reporter.hpp"

#ifndef LAUNCHLINT_VERSION
#define LAUNCHLINT_VERSION "0.0.0"
#endif

namespace lint::report {

namespace {

using detail::Json;

constexpr std::string_view kSchema = "https://json.schemastore.org/sarif-2.1.0.json";
constexpr std::string_view kSrcRoot = "%SRCROOT%";
/// GitHub and the schema allow 1024 characters; counted here in bytes, which is never fewer.
constexpr std::size_t kMaxDescription = 1024;

std::string_view sarif_level(rule::Severity s) {
  switch (s) {
    case rule::Severity::Error:
      return "error";
    case rule::Severity::Warning:
      return "warning";
    case rule::Severity::Info:
      return "note";
  }
  return "warning";
}

std::string_view problem_severity(rule::Severity s) {
  switch (s) {
    case rule::Severity::Error:
      return "error";
    case rule::Severity::Warning:
      return "warning";
    case rule::Severity::Info:
      return "recommendation";
  }
  return "warning";
}

Json text_message(std::string text) {
  Json out(Json::Object{});
  out.add("text", std::move(text));
  return out;
}

/// A reportingDescriptor for one rule.
/// `helpUri` only when a docs URL is configured: no link to a page that may not exist. The whole rule page is
/// in `help` either way.
Json rule_json(std::string_view code, std::string_view slug, std::string_view area, rule::Severity severity,
               std::string summary, std::string_view doc, std::string_view docs_url) {
  std::string name = detail::pascal_case(slug);
  if (name.empty() || name == code) name = fmt::format("{}Rule", detail::pascal_case(code));
  const std::string short_text = detail::truncate_utf8(detail::with_period(summary), kMaxDescription);
  std::string full_text = short_text;
  if (const std::string rationale = detail::doc_section_first_paragraph(doc, "Rationale"); !rationale.empty()) {
    full_text =
        detail::truncate_utf8(detail::with_period(fmt::format("{} {}", short_text, rationale)), kMaxDescription);
  }
  const std::string markdown = doc.empty() ? short_text : detail::normalize_newlines(doc);
  const std::string help_text = doc.empty() ? short_text : detail::doc_as_text(doc);

  Json out(Json::Object{});
  out.add("id", code);
  out.add("name", name);
  out.add("shortDescription", text_message(short_text));
  out.add("fullDescription", text_message(full_text));
  Json help(Json::Object{});
  help.add("text", help_text);
  help.add("markdown", markdown);
  out.add("help", std::move(help));
  if (std::string url = rule_url(docs_url, area, slug); !url.empty()) out.add("helpUri", std::move(url));
  Json config(Json::Object{});
  config.add("level", sarif_level(severity));
  out.add("defaultConfiguration", std::move(config));
  Json properties(Json::Object{});
  Json tags(Json::Array{});
  if (!area.empty()) tags.push(area);
  tags.push("launch-config");
  properties.add("tags", std::move(tags));
  properties.add("precision", "high");
  properties.add("problem.severity", problem_severity(severity));
  out.add("properties", std::move(properties));
  return out;
}

Json region_json(const source::Region& r) {
  Json out(Json::Object{});
  if (!r.valid()) {
    // A whole-file finding: GitHub needs a start line (validator GH1003) and fingerprints line 1 for it.
    out.add("startLine", 1);
    return out;
  }
  const std::uint32_t start_column = std::max<std::uint32_t>(r.begin.column, 1);
  std::uint32_t end_line = r.end.line;
  std::uint32_t end_column = r.end.column;
  if (end_line < r.begin.line || (end_line == r.begin.line && end_column < start_column)) {
    end_line = r.begin.line;
    end_column = start_column;
  }
  out.add("startLine", r.begin.line);
  out.add("startColumn", start_column);
  out.add("endLine", end_line);
  out.add("endColumn", std::max<std::uint32_t>(end_column, 1));
  return out;
}

Json physical_location(const detail::SrcRoot& root, const std::string& path, const source::Region& region) {
  const detail::ArtifactUri uri = detail::artifact_uri(root, path);
  Json artifact(Json::Object{});
  artifact.add("uri", uri.uri);
  if (uri.relative) artifact.add("uriBaseId", kSrcRoot);
  Json physical(Json::Object{});
  physical.add("artifactLocation", std::move(artifact));
  physical.add("region", region_json(region));
  return physical;
}

/// SARIF fixes[] for a diagnostic's fix: one artifactChange with a replacement per edit (deletedRegion in
/// line/column, insertedContent the new text). Nothing when the edited file's text is not at hand.
Json fixes_json(const detail::SrcRoot& root, const ReportInput& in, const rule::Fix& fix) {
  Json fixes(Json::Array{});
  const std::string& path = fix.edits.front().path;
  const source::SourceFile* file = detail::find_source(in, path);
  if (file == nullptr) return fixes;
  Json replacements(Json::Array{});
  for (const rule::Edit& e : fix.edits) {
    const source::Region r = file->region(e.begin, e.end);
    Json deleted(Json::Object{});
    deleted.add("startLine", r.begin.line);
    deleted.add("startColumn", r.begin.column);
    deleted.add("endLine", r.end.line);
    deleted.add("endColumn", r.end.column);
    Json inserted(Json::Object{});
    inserted.add("text", e.replacement);
    Json replacement(Json::Object{});
    replacement.add("deletedRegion", std::move(deleted));
    replacement.add("insertedContent", std::move(inserted));
    replacements.push(std::move(replacement));
  }
  const detail::ArtifactUri uri = detail::artifact_uri(root, path);
  Json artifact(Json::Object{});
  artifact.add("uri", uri.uri);
  if (uri.relative) artifact.add("uriBaseId", kSrcRoot);
  Json change(Json::Object{});
  change.add("artifactLocation", std::move(artifact));
  change.add("replacements", std::move(replacements));
  Json changes(Json::Array{});
  changes.push(std::move(change));
  Json one(Json::Object{});
  one.add("description", text_message(fix.description + (fix.safety == rule::FixSafety::Unsafe ? " (unsafe)." : ".")));
  one.add("artifactChanges", std::move(changes));
  fixes.push(std::move(one));
  return fixes;
}

/// The rules[] array (every rule of the table, then any code that was reported but is not in the table) and the
/// index of each code in it.
struct RuleIndex {
  Json rules = Json(Json::Array{});
  std::unordered_map<std::string, std::size_t> index;
};

RuleIndex build_rules(const ReportInput& in) {
  RuleIndex out;
  if (in.rules != nullptr) {
    for (const auto& info : *in.rules) {
      const std::string code(info.code);
      if (out.index.contains(code)) continue;  // rules[] must not hold duplicates
      out.index.emplace(code, out.index.size());
      out.rules.push(
          rule_json(info.code, info.slug, info.area, info.default_severity, info.summary(), info.doc, in.docs_url));
    }
  }
  for (const auto& d : detail::diagnostics_of(in)) {
    if (out.index.contains(d.code)) continue;
    out.index.emplace(d.code, out.index.size());
    out.rules.push(
        rule_json(d.code, d.slug, {}, d.severity, fmt::format("Reports {}", d.slug.empty() ? d.code : d.slug), {}, {}));
  }
  return out;
}

/// Caches the line hashes of each source file.
class LineHashes {
 public:
  explicit LineHashes(const ReportInput& in) : in_(in) {}
  /// The primaryLocationLineHash of `line` (1 for a whole-file finding) of `path`, or empty when unknown.
  std::string get(const std::string& path, std::uint32_t line) {
    auto it = cache_.find(path);
    if (it == cache_.end()) {
      const auto* file = detail::find_source(in_, path);
      it = cache_.emplace(path, file != nullptr ? detail::line_hashes(file->text()) : std::vector<std::string>{}).first;
      detail::release_source(in_, path);  // read again only for a fix's regions
    }
    const std::size_t index = line == 0 ? 0 : line - 1;
    return index < it->second.size() ? it->second[index] : std::string{};
  }

 private:
  const ReportInput& in_;
  std::map<std::string, std::vector<std::string>> cache_;
};

}  // namespace

void write_sarif(std::ostream& out, const ReportInput& in) {
  const detail::SrcRoot root = detail::make_srcroot(in.srcroot);
  RuleIndex rules = build_rules(in);
  LineHashes line_hashes(in);
  std::unordered_map<std::uint64_t, std::size_t> stable_seen;

  Json results(Json::Array{});
  for (const auto& d : detail::diagnostics_of(in)) {
    Json result(Json::Object{});
    result.add("ruleId", d.code);
    result.add("ruleIndex", rules.index.at(d.code));
    result.add("level", sarif_level(d.severity));
    result.add("message", text_message(detail::with_period(d.message)));
    Json locations(Json::Array{});
    Json location(Json::Object{});
    location.add("physicalLocation", physical_location(root, d.path, d.region));
    locations.push(std::move(location));
    result.add("locations", std::move(locations));
    if (!d.related.empty()) {
      Json related(Json::Array{});
      for (std::size_t i = 0; i < d.related.size(); ++i) {
        const auto& rel = d.related[i];
        Json loc(Json::Object{});
        loc.add("id", i + 1);
        loc.add("physicalLocation", physical_location(root, rel.path, rel.region));
        loc.add("message", text_message(detail::with_period(rel.message.empty() ? "Related location" : rel.message)));
        related.push(std::move(loc));
      }
      result.add("relatedLocations", std::move(related));
    }
    Json fingerprints(Json::Object{});
    if (std::string line_hash = line_hashes.get(d.path, d.region.valid() ? d.region.begin.line : 1);
        !line_hash.empty()) {
      fingerprints.add("primaryLocationLineHash", std::move(line_hash));
    }
    const std::string uri = detail::artifact_uri(root, d.path).uri;
    const std::string_view what = d.setting.empty() ? std::string_view(d.message) : std::string_view(d.setting);
    const std::uint64_t stable = detail::fnv1a64(fmt::format("{}\n{}\n{}", d.code, uri, what));
    fingerprints.add("launchlint/v1", fmt::format("{:016x}:{}", stable, ++stable_seen[stable]));
    result.add("partialFingerprints", std::move(fingerprints));
    if (d.suppressed) {
      Json suppression(Json::Object{});
      suppression.add("kind", "inSource");
      Json suppressions(Json::Array{});
      suppressions.push(std::move(suppression));
      result.add("suppressions", std::move(suppressions));
    }
    if (d.fix && !d.fix->edits.empty()) result.add("fixes", fixes_json(root, in, *d.fix));
    results.push(std::move(result));
  }

  Json driver(Json::Object{});
  driver.add("name", "launchlint");
  driver.add("version", LAUNCHLINT_VERSION);
  driver.add("semanticVersion", LAUNCHLINT_VERSION);
  if (!in.docs_url.empty()) driver.add("informationUri", in.docs_url);
  driver.add("rules", std::move(rules.rules));
  Json tool(Json::Object{});
  tool.add("driver", std::move(driver));

  Json invocation(Json::Object{});
  invocation.add("executionSuccessful", true);
  Json invocations(Json::Array{});
  invocations.push(std::move(invocation));

  Json base(Json::Object{});
  base.add("uri", root.uri);
  Json bases(Json::Object{});
  bases.add(std::string(kSrcRoot), std::move(base));

  Json automation(Json::Object{});
  automation.add("id", "launchlint/");

  Json run(Json::Object{});
  run.add("tool", std::move(tool));
  run.add("invocations", std::move(invocations));
  run.add("originalUriBaseIds", std::move(bases));
  run.add("automationDetails", std::move(automation));
  run.add("columnKind", "unicodeCodePoints");
  run.add("results", std::move(results));

  Json runs(Json::Array{});
  runs.push(std::move(run));
  Json doc(Json::Object{});
  doc.add("$schema", kSchema);
  doc.add("version", "2.1.0");
  doc.add("runs", std::move(runs));
  doc.write(out);
  out << '\n';
}

}  // namespace lint::report
