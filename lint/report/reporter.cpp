#include "lint/report/reporter.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "lint/report/detail.hpp"

namespace lint::report {

std::optional<Format> parse_format(std::string_view name) {
  if (name == "text" || name == "full") return Format::Text;
  if (name == "concise") return Format::Concise;
  if (name == "json") return Format::Json;
  if (name == "sarif") return Format::Sarif;
  if (name == "github") return Format::Github;
  if (name == "gitlab") return Format::Gitlab;
  if (name == "junit") return Format::Junit;
  return std::nullopt;
}

const std::vector<std::string>& format_names() {
  static const std::vector<std::string> kNames = {"text", "concise", "json", "sarif", "github", "gitlab", "junit"};
  return kNames;
}

std::string rule_url(std::string_view docs_url, std::string_view area, std::string_view slug) {
  if (docs_url.empty() || area.empty() || slug.empty()) return {};
  std::string base(docs_url);
  if (!base.ends_with('/')) base += '/';
  return fmt::format("{}{}/{}.md", base, detail::percent_encode_path(area), detail::percent_encode_path(slug));
}

void write(Format format, std::ostream& out, const ReportInput& in) {
  switch (format) {
    case Format::Text:
      write_text(out, in);
      return;
    case Format::Concise:
      write_concise(out, in);
      return;
    case Format::Json:
      write_json(out, in);
      return;
    case Format::Sarif:
      write_sarif(out, in);
      return;
    case Format::Github:
      write_github(out, in);
      return;
    case Format::Gitlab:
      write_gitlab(out, in);
      return;
    case Format::Junit:
      write_junit(out, in);
      return;
  }
}

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 8);
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80U) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\b':
          out += "\\b";
          break;
        case '\f':
          out += "\\f";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        default:
          if (c < 0x20U || c == 0x7FU) {
            out += fmt::format("\\u{:04x}", c);
          } else {
            out += static_cast<char>(c);
          }
      }
      ++i;
      continue;
    }
    const detail::Utf8Unit unit = detail::decode_utf8(s, i);
    if (!unit.valid) {
      out += "\\ufffd";
    } else if (unit.code_point == 0x2028 || unit.code_point == 0x2029) {
      // Valid JSON either way; escaped so that the output is also safe to embed in JavaScript.
      out += fmt::format("\\u{:04x}", static_cast<std::uint32_t>(unit.code_point));
    } else {
      out.append(s.substr(i, unit.length));
    }
    i += unit.length;
  }
  return out;
}

namespace detail {

namespace {

bool in_range(unsigned char c, unsigned char lo, unsigned char hi) {
  return c >= lo && c <= hi;
}

bool is_wide(char32_t cp) {
  return (cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
         (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
         (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
         (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
         (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD);
}

bool is_continuation(unsigned char c) {
  return (c & 0xC0U) == 0x80U;
}

void write_string(std::ostream& out, std::string_view s) {
  out << '"' << json_escape(s) << '"';
}

void write_indent(std::ostream& out, int depth) {
  for (int i = 0; i < depth; ++i) out << "  ";
}

}  // namespace

Utf8Unit decode_utf8(std::string_view text, std::size_t i) {
  const auto b0 = static_cast<unsigned char>(text[i]);
  if (b0 < 0x80U) return {b0, 1, true};
  std::size_t need = 0;
  unsigned char lower = 0x80U;
  unsigned char upper = 0xBFU;
  char32_t cp = 0;
  if (in_range(b0, 0xC2U, 0xDFU)) {
    need = 1;
    cp = b0 & 0x1FU;
  } else if (in_range(b0, 0xE0U, 0xEFU)) {
    need = 2;
    cp = b0 & 0x0FU;
    if (b0 == 0xE0U) lower = 0xA0U;
    if (b0 == 0xEDU) upper = 0x9FU;
  } else if (in_range(b0, 0xF0U, 0xF4U)) {
    need = 3;
    cp = b0 & 0x07U;
    if (b0 == 0xF0U) lower = 0x90U;
    if (b0 == 0xF4U) upper = 0x8FU;
  } else {
    return {0xFFFD, 1, false};
  }
  for (std::size_t k = 1; k <= need; ++k) {
    if (i + k >= text.size()) return {0xFFFD, k, false};
    const auto b = static_cast<unsigned char>(text[i + k]);
    if (!in_range(b, lower, upper)) return {0xFFFD, k, false};
    lower = 0x80U;
    upper = 0xBFU;
    cp = (cp << 6U) | (b & 0x3FU);
  }
  return {cp, need + 1, true};
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string sanitize_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const Utf8Unit unit = decode_utf8(text, i);
    if (unit.valid) {
      out.append(text.substr(i, unit.length));
    } else {
      append_utf8(out, 0xFFFD);
    }
    i += unit.length;
  }
  return out;
}

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    // Printable ASCII, tabs and newlines are kept as they are: copied a run at a time.
    std::size_t run = i;
    while (run < text.size()) {
      const auto c = static_cast<unsigned char>(text[run]);
      if ((c < 0x20U || c >= 0x7FU) && c != '\t' && c != '\n') break;
      ++run;
    }
    out.append(text.data() + i, run - i);
    i = run;
    if (i == text.size()) break;
    const Utf8Unit unit = decode_utf8(text, i);
    const char32_t cp = unit.code_point;
    const bool control = (cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7F && cp <= 0x9F);
    if (!unit.valid || control) {
      append_utf8(out, 0xFFFD);
    } else {
      out.append(text.substr(i, unit.length));
    }
    i += unit.length;
  }
  return out;
}

Counts count(const std::vector<rule::Diagnostic>& diagnostics) {
  Counts c;
  for (const auto& d : diagnostics) {
    if (d.suppressed) {
      ++c.suppressed;
      continue;
    }
    switch (d.severity) {
      case rule::Severity::Error:
        ++c.errors;
        break;
      case rule::Severity::Warning:
        ++c.warnings;
        break;
      case rule::Severity::Info:
        ++c.infos;
        break;
    }
  }
  return c;
}

std::string summary_line(const Counts& counts) {
  if (counts.problems() == 0) return "All checks passed!";
  auto plural = [](std::size_t n, std::string_view one, std::string_view many) {
    return fmt::format("{} {}", n, n == 1 ? one : many);
  };
  return fmt::format("Found {} ({}, {}, {}).", plural(counts.problems(), "problem", "problems"),
                     plural(counts.errors, "error", "errors"), plural(counts.warnings, "warning", "warnings"),
                     plural(counts.infos, "info", "infos"));
}

const std::vector<rule::Diagnostic>& diagnostics_of(const ReportInput& in) {
  static const std::vector<rule::Diagnostic> kNone;
  return in.diagnostics != nullptr ? *in.diagnostics : kNone;
}

const source::SourceFile* find_source(const ReportInput& in, const std::string& path) {
  if (in.sources == nullptr) return nullptr;
  const auto it = in.sources->find(path);
  // A file whose text was released and has changed on disk since is not quoted: its lines are not the ones the
  // findings are about.
  if (it == in.sources->end() || !it->second->unchanged()) return nullptr;
  return it->second.get();
}

void release_source(const ReportInput& in, const std::string& path) {
  if (in.sources == nullptr) return;
  if (const auto it = in.sources->find(path); it != in.sources->end()) it->second->release_again();
}

std::size_t DisplayLine::offset(std::uint32_t column) const {
  if (columns.empty()) return 0;
  if (column == 0) return columns.front();
  return columns[std::min<std::size_t>(column - 1, columns.size() - 1)];
}

DisplayLine render_line(std::string_view line) {
  DisplayLine out;
  std::size_t col = 0;
  std::size_t i = 0;
  const std::size_t n = line.size();
  // Stray continuation bytes at the start belong to no column (SourceFile counts lead bytes only).
  if (i < n && is_continuation(static_cast<unsigned char>(line[i]))) {
    while (i < n && is_continuation(static_cast<unsigned char>(line[i]))) ++i;
    append_utf8(out.text, 0xFFFD);
    ++col;
  }
  while (i < n) {
    out.columns.push_back(col);
    // A column is a lead byte with the continuation bytes after it, as SourceFile counts them.
    std::size_t j = i + 1;
    while (j < n && is_continuation(static_cast<unsigned char>(line[j]))) ++j;
    const std::string_view unit = line.substr(i, j - i);
    const auto c = static_cast<unsigned char>(unit[0]);
    if (c == '\t') {
      const std::size_t w = kTabWidth - col % kTabWidth;
      out.text.append(w, ' ');
      col += w;
    } else {
      const Utf8Unit decoded = decode_utf8(unit, 0);
      const char32_t cp = decoded.code_point;
      const bool control = cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
      if (!decoded.valid || decoded.length != unit.size() || control) {
        append_utf8(out.text, 0xFFFD);
        col += 1;
      } else {
        out.text.append(unit);
        col += is_wide(cp) ? 2 : 1;
      }
    }
    i = j;
  }
  out.columns.push_back(col);
  return out;
}

std::string github_escape_data(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string github_escape_property(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : github_escape_data(text)) {
    switch (c) {
      case ':':
        out += "%3A";
        break;
      case ',':
        out += "%2C";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string percent_encode_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                            c == '.' || c == '_' || c == '~' || c == '/';
    if (unreserved) {
      out += ch;
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string percent_decode(std::string_view text) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

namespace {

/// Lexically normalised absolute POSIX path (no `.`/`..` segments, single slashes).
std::string normalize_path(const std::string& path) {
  std::string normal = std::filesystem::path(path).lexically_normal().generic_string();
  return normal;
}

void ensure_slash(std::string& s) {
  if (s.empty() || s.back() != '/') s += '/';
}

}  // namespace

SrcRoot make_srcroot(std::string_view srcroot) {
  SrcRoot root;
  constexpr std::string_view kFile = "file://";
  if (srcroot.starts_with(kFile)) {
    std::string rest(srcroot.substr(kFile.size()));
    // Skip an authority ("file://host/dir"): the path starts at the first '/'.
    const auto slash = rest.find('/');
    rest = slash == std::string::npos ? "/" : rest.substr(slash);
    root.dir = normalize_path(percent_decode(rest));
  } else {
    std::error_code ec;
    std::filesystem::path p = srcroot.empty() ? std::filesystem::current_path(ec) : std::filesystem::path(srcroot);
    if (p.is_relative()) p = std::filesystem::absolute(p, ec);
    root.dir = normalize_path(p.generic_string());
  }
  if (root.dir.empty() || root.dir.front() != '/') root.dir.insert(root.dir.begin(), '/');
  ensure_slash(root.dir);
  root.uri = "file://" + percent_encode_path(root.dir);
  return root;
}

ArtifactUri artifact_uri(const SrcRoot& root, std::string_view path) {
  std::string full(path);
  if (full.empty() || full.front() != '/') full = root.dir + full;
  full = normalize_path(full);
  if (full.starts_with(root.dir) && full.size() > root.dir.size()) {
    return {percent_encode_path(full.substr(root.dir.size())), true};
  }
  return {"file://" + percent_encode_path(full), false};
}

std::string pascal_case(std::string_view slug) {
  std::string out;
  bool upper = true;
  for (const char c : slug) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum) {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

std::string normalize_newlines(std::string_view doc) {
  std::string out;
  out.reserve(doc.size());
  for (std::size_t i = 0; i < doc.size(); ++i) {
    if (doc[i] == '\r') {
      out += '\n';
      if (i + 1 < doc.size() && doc[i + 1] == '\n') ++i;
    } else {
      out += doc[i];
    }
  }
  return out;
}

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string doc_section_first_paragraph(std::string_view doc, std::string_view heading) {
  const std::string text = normalize_newlines(doc);
  const auto lines = split_lines(text);
  std::size_t i = 0;
  for (; i < lines.size(); ++i) {
    const std::string_view line = trim(lines[i]);
    if (line.starts_with("## ") && trim(line.substr(3)) == heading) break;
  }
  if (i == lines.size()) return {};
  std::string out;
  bool in_fence = false;
  for (++i; i < lines.size(); ++i) {
    const std::string_view line = trim(lines[i]);
    if (line.starts_with("```")) {
      if (!out.empty()) break;
      in_fence = !in_fence;
      continue;
    }
    if (in_fence) continue;
    if (line.starts_with("#")) break;
    if (line.empty()) {
      if (!out.empty()) break;
      continue;
    }
    if (!out.empty()) out += ' ';
    out += line;
  }
  return out;
}

std::string doc_as_text(std::string_view doc) {
  const std::string text = normalize_newlines(doc);
  std::string out;
  bool in_fence = false;
  for (const std::string_view line : split_lines(text)) {
    if (trim(line).starts_with("```")) in_fence = !in_fence;
    std::string_view shown = line;
    if (!in_fence && shown.starts_with("#")) {
      const auto marks = shown.find_first_not_of('#');
      if (marks != std::string_view::npos && shown[marks] == ' ') shown = shown.substr(marks + 1);
    }
    out += shown;
    out += '\n';
  }
  while (out.size() > 1 && out[out.size() - 1] == '\n' && out[out.size() - 2] == '\n') out.pop_back();
  return out;
}

std::string truncate_utf8(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  constexpr std::string_view kEllipsis = "...";
  std::size_t cut = max_bytes > kEllipsis.size() ? max_bytes - kEllipsis.size() : 0;
  while (cut > 0 && is_continuation(static_cast<unsigned char>(text[cut]))) --cut;
  std::string out(text.substr(0, cut));
  // Prefer ending at a sentence boundary when one is reasonably close.
  const auto sentence = out.rfind(". ");
  if (sentence != std::string::npos && sentence > out.size() / 2) return out.substr(0, sentence + 1);
  out += kEllipsis;
  return out;
}

std::string with_period(std::string_view text) {
  std::string out(trim(text));
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (out.empty() || out.back() != '.') out += '.';
  return out;
}

std::uint64_t fnv1a64(std::string_view data, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (const char c : data) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

Json& Json::add(std::string key, Json value) {
  if (!std::holds_alternative<Object>(value_)) value_ = Object{};
  auto& members = std::get<Object>(value_);
  members.emplace_back(std::move(key), std::move(value));
  return members.back().second;
}

Json& Json::push(Json value) {
  if (!std::holds_alternative<Array>(value_)) value_ = Array{};
  auto& elements = std::get<Array>(value_);
  elements.push_back(std::move(value));
  return elements.back();
}

void Json::write(std::ostream& out, int depth) const {
  if (std::holds_alternative<std::nullptr_t>(value_)) {
    out << "null";
  } else if (const auto* b = std::get_if<bool>(&value_)) {
    out << (*b ? "true" : "false");
  } else if (const auto* n = std::get_if<std::int64_t>(&value_)) {
    out << *n;
  } else if (const auto* s = std::get_if<std::string>(&value_)) {
    write_string(out, *s);
  } else if (const auto* a = std::get_if<Array>(&value_)) {
    if (a->empty()) {
      out << "[]";
      return;
    }
    out << "[\n";
    for (std::size_t i = 0; i < a->size(); ++i) {
      write_indent(out, depth + 1);
      (*a)[i].write(out, depth + 1);
      out << (i + 1 < a->size() ? ",\n" : "\n");
    }
    write_indent(out, depth);
    out << ']';
  } else if (const auto* o = std::get_if<Object>(&value_)) {
    if (o->empty()) {
      out << "{}";
      return;
    }
    out << "{\n";
    for (std::size_t i = 0; i < o->size(); ++i) {
      write_indent(out, depth + 1);
      write_string(out, (*o)[i].first);
      out << ": ";
      (*o)[i].second.write(out, depth + 1);
      out << (i + 1 < o->size() ? ",\n" : "\n");
    }
    write_indent(out, depth);
    out << '}';
  }
}

}  // namespace detail

}  // namespace lint::report
