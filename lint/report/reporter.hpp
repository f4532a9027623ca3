// Reporters: text (default), concise, json, sarif, github, junit.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "lint/rule/diagnostic.hpp"
#include "lint/rule/rule.hpp"
#include "lint/source/source_file.hpp"

namespace lint::report {

enum class Format : std::uint8_t { Text, Concise, Json, Sarif, Github, Junit };

std::optional<Format> parse_format(std::string_view name);

struct ReportInput {
  const std::vector<rule::Diagnostic>* diagnostics = nullptr;  ///< sorted; suppressed ones only with --show-suppressed
  const rule::RuleTable* rules = nullptr;                       ///< every rule (SARIF rules[] lists all of them)
  const std::map<std::string, source::SourcePtr>* sources = nullptr;  ///< by Diagnostic::path, for snippets
  std::string srcroot;     ///< absolute directory, ending in '/', that relative paths are relative to (SARIF %SRCROOT%)
  bool color = false;      ///< ANSI colour (text)
  std::size_t files_checked = 0;
};

/// Writes the diagnostics in `format`. Text and concise end with a summary line ("Found N problems" / "All checks passed!").
void write(Format format, std::ostream& out, const ReportInput& in);

void write_text(std::ostream& out, const ReportInput& in);
void write_concise(std::ostream& out, const ReportInput& in);
void write_json(std::ostream& out, const ReportInput& in);
void write_sarif(std::ostream& out, const ReportInput& in);
void write_github(std::ostream& out, const ReportInput& in);
void write_junit(std::ostream& out, const ReportInput& in);

/// GitHub's primaryLocationLineHash (codeql-action fingerprints.ts): rolling hash over the line's text.
std::string primary_location_line_hash(const source::SourceFile& file, std::uint32_t line);

/// JSON string escaping shared by the JSON writers.
std::string json_escape(std::string_view s);

}  // namespace lint::report
