// Helpers shared by the reporters (not part of the public reporter API; the tests use them directly).
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "lint/report/reporter.hpp"

namespace lint::report::detail {

/// One decoded UTF-8 sequence: a code point, or an invalid sequence (`valid == false`, code point U+FFFD) that is
/// the maximal subpart of a well-formed sequence, as the WHATWG/Unicode decoders (and Node.js) replace them.
struct Utf8Unit {
  char32_t code_point = 0;
  std::size_t length = 1;
  bool valid = true;
};

/// Decodes the sequence that starts at `text[i]` (`i < text.size()`).
Utf8Unit decode_utf8(std::string_view text, std::size_t i);

/// Appends `cp` to `out` as UTF-8.
void append_utf8(std::string& out, char32_t cp);

/// `text` with every invalid UTF-8 sequence replaced by U+FFFD.
std::string sanitize_utf8(std::string_view text);

/// Text that is safe to print on a terminal: invalid UTF-8 and control characters (C0 except tab and line feed,
/// DEL, C1) become U+FFFD, so that no escape sequence from a linted file reaches the terminal.
std::string terminal_safe(std::string_view text);

/// Counts of the diagnostics that are not suppressed.
struct Counts {
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::size_t infos = 0;
  std::size_t suppressed = 0;
  [[nodiscard]] std::size_t problems() const { return errors + warnings + infos; }
};

Counts count(const std::vector<rule::Diagnostic>& diagnostics);

/// `Found N problems (E errors, W warnings, I infos).` or `All checks passed!` (no newline).
std::string summary_line(const Counts& counts);

/// The diagnostics of `in`, or an empty list when none were given.
const std::vector<rule::Diagnostic>& diagnostics_of(const ReportInput& in);

/// The source of `path`, or nullptr.
const source::SourceFile* find_source(const ReportInput& in, const std::string& path);
/// Gives back the text of `path` that find_source read again (SourceFile::release_again), once nothing uses it.
void release_source(const ReportInput& in, const std::string& path);

/// One source line prepared for display: tabs expanded to tab stops, unsafe characters replaced.
struct DisplayLine {
  std::string text;
  /// columns[c - 1] is the display column (0-based) where code-point column c starts; one extra entry for the end.
  std::vector<std::size_t> columns;
  /// The display column of the 1-based code-point column `column` (clamped to the end of the line).
  [[nodiscard]] std::size_t offset(std::uint32_t column) const;
  [[nodiscard]] std::size_t width() const { return columns.empty() ? 0 : columns.back(); }
};

inline constexpr std::size_t kTabWidth = 4;

DisplayLine render_line(std::string_view line);

// ---- GitHub workflow commands ----

/// Escapes a workflow-command message: `%`, CR, LF.
std::string github_escape_data(std::string_view text);
/// Escapes a workflow-command property value: as data, plus `:` and `,`.
std::string github_escape_property(std::string_view text);

// ---- URIs ----

/// Percent-encodes everything except RFC 3986 unreserved characters and `/`.
std::string percent_encode_path(std::string_view path);
/// Decodes %XX escapes (invalid escapes are kept as they are).
std::string percent_decode(std::string_view text);

/// Where SARIF artifact URIs are relative to.
struct SrcRoot {
  std::string dir;  ///< absolute directory path, ending in '/'
  std::string uri;  ///< file:// URI of dir, percent-encoded, ending in '/'
};

/// Interprets ReportInput::srcroot: a `file://` URI or a directory path (relative ones are made absolute; empty
/// means the current directory).
SrcRoot make_srcroot(std::string_view srcroot);

/// A SARIF artifactLocation: `uri` relative to the root (`relative` true), or an absolute file:// URI.
struct ArtifactUri {
  std::string uri;
  bool relative = false;
};

ArtifactUri artifact_uri(const SrcRoot& root, std::string_view path);

// ---- rule documentation ----

/// `slug-like-this` -> `SlugLikeThis`.
std::string pascal_case(std::string_view slug);
/// The first paragraph of the section `## <heading>` of a Markdown page, joined into one line (empty if none).
std::string doc_section_first_paragraph(std::string_view doc, std::string_view heading);
/// The page with CRLF/CR normalised to LF and Markdown heading markers removed outside code fences.
std::string doc_as_text(std::string_view doc);
/// `doc` with CRLF/CR normalised to LF.
std::string normalize_newlines(std::string_view doc);
/// Truncates at a UTF-8 boundary so that the result has at most `max_bytes` bytes (ending with "..." if cut).
std::string truncate_utf8(std::string_view text, std::size_t max_bytes);
/// `text` trimmed, ending with a period (one is appended unless it ends with '.').
std::string with_period(std::string_view text);

// ---- fingerprints ----

/// codeql-action's primaryLocationLineHash for every line of `text` (index 0 = line 1); may hold one more entry
/// than the file has lines (the empty line after a final line break).
std::vector<std::string> line_hashes(std::string_view text);

/// 64-bit FNV-1a.
std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed = 0xcbf29ce484222325ULL);

// ---- a small JSON document model, written 2-space indented (JSON.stringify(v, null, 2) layout) ----

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() = default;
  Json(std::nullptr_t) {}                                          // NOLINT(google-explicit-constructor)
  Json(bool b) : value_(b) {}                                      // NOLINT(google-explicit-constructor)
  Json(int n) : value_(static_cast<std::int64_t>(n)) {}            // NOLINT(google-explicit-constructor)
  Json(std::int64_t n) : value_(n) {}                              // NOLINT(google-explicit-constructor)
  Json(std::uint32_t n) : value_(static_cast<std::int64_t>(n)) {}  // NOLINT(google-explicit-constructor)
  Json(std::uint64_t n) : value_(static_cast<std::int64_t>(n)) {}  // NOLINT(google-explicit-constructor)
  Json(std::string s) : value_(std::move(s)) {}                    // NOLINT(google-explicit-constructor)
  Json(std::string_view s) : value_(std::string(s)) {}             // NOLINT(google-explicit-constructor)
  Json(const char* s) : value_(std::string(s)) {}                  // NOLINT(google-explicit-constructor)
  Json(Array a) : value_(std::move(a)) {}                          // NOLINT(google-explicit-constructor)
  Json(Object o) : value_(std::move(o)) {}                         // NOLINT(google-explicit-constructor)

  /// Appends a member (objects only).
  Json& add(std::string key, Json value);
  /// Appends an element (arrays only).
  Json& push(Json value);

  /// Writes the value; `depth` is its nesting depth (for indentation).
  void write(std::ostream& out, int depth = 0) const;

 private:
  std::variant<std::nullptr_t, bool, std::int64_t, std::string, Array, Object> value_ = nullptr;
};

}  // namespace lint::report::detail
