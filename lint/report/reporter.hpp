// Reporters: text (default), concise, json, sarif, github, gitlab, junit.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "lint/rule/diagnostic.hpp"
#include "lint/rule/rule.hpp"
#include "lint/source/source_file.hpp"

namespace lint::report {

enum class Format : std::uint8_t { Text, Concise, Json, Sarif, Github, Gitlab, Junit };

std::optional<Format> parse_format(std::string_view name);

/// The names parse_format accepts, for messages and "did you mean".
const std::vector<std::string>& format_names();

/// The `version` of the JSON output's schema (docs/schema/launchlint-output.schema.json): bumped on any change
/// that is not an added optional field.
inline constexpr int kJsonVersion = 1;

struct ReportInput {
  const std::vector<rule::Diagnostic>* diagnostics = nullptr;  ///< sorted; suppressed ones only with --show-suppressed
  const rule::RuleTable* rules = nullptr;                      ///< every rule (SARIF rules[] lists all of them)
  const source::SourceMap* sources = nullptr;                  ///< by Diagnostic::path, for snippets
  std::string srcroot;   ///< absolute directory, ending in '/', that relative paths are relative to (SARIF %SRCROOT%)
  bool color = false;    ///< ANSI colour (text)
  std::string docs_url;  ///< where the rule pages are published ("" when not configured: no links are written)
  std::size_t files_checked = 0;
  /// Threads the text report renders its findings on (0: all cores); the output does not depend on it.
  unsigned jobs = 1;
  /// Text and concise end with the summary line ("Found N problems"); `-q` leaves it out.
  bool summary = true;
};

/// Writes the diagnostics in `format`. Text and concise end with a summary line ("Found N problems" / "All checks
/// passed!").
void write(Format format, std::ostream& out, const ReportInput& in);

void write_text(std::ostream& out, const ReportInput& in);
void write_concise(std::ostream& out, const ReportInput& in);
void write_json(std::ostream& out, const ReportInput& in);
void write_sarif(std::ostream& out, const ReportInput& in);
void write_github(std::ostream& out, const ReportInput& in);
void write_junit(std::ostream& out, const ReportInput& in);
/// GitLab Code Quality report: an array of {description, check_name, fingerprint, severity, location}.
void write_gitlab(std::ostream& out, const ReportInput& in);

/// `--statistics` and `launchlint rule` produce only text and JSON.
bool listing_supports(Format format);
/// Findings per rule (not suppressed ones), in rule order.
void write_statistics(Format format, std::ostream& out, const ReportInput& in);
/// Rules: text one line each (`full`: the whole page), or a JSON array with each page.
void write_rules(Format format, std::ostream& out, const std::vector<const rule::RuleInfo*>& rules, bool full);

/// The published page of a rule under `docs_url` ("" when no docs URL is configured).
std::string rule_url(std::string_view docs_url, std::string_view area, std::string_view slug);

/// GitHub's primaryLocationLineHash (codeql-action fingerprints.ts): rolling hash over the line's text.
std::string primary_location_line_hash(const source::SourceFile& file, std::uint32_t line);

/// JSON string escaping shared by the JSON writers.
std::string json_escape(std::string_view s);

}  // namespace lint::report
