#include "lint/rule/suppression.hpp"

#include <cctype>

namespace lint::rule {

namespace {

bool is_code_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

/// Parses `[A, B]` starting at `i` (pointing at '['); fills codes with their byte offsets.
bool parse_code_list(std::string_view text, std::size_t& i, std::vector<std::pair<std::string, std::size_t>>& out) {
  if (i >= text.size() || text[i] != '[') return false;
  ++i;
  while (i < text.size() && text[i] != ']') {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && is_code_char(text[i])) ++i;
    if (i > start) out.emplace_back(std::string(text.substr(start, i - start)), start);
    if (i == start && i < text.size() && text[i] != ']') return false;
  }
  if (i >= text.size()) return false;
  ++i;  // ']'
  return true;
}

/// Parses `A, B C` after `# noqa:`: codes separated by commas/spaces.
void parse_noqa_codes(std::string_view text, std::size_t i, std::vector<std::pair<std::string, std::size_t>>& out) {
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && is_code_char(text[i])) ++i;
    if (i == start) break;
    const std::string_view code = text.substr(start, i - start);
    // noqa codes look like ABC123; stop at the first word that is not one (free text follows).
    bool has_alpha = false;
    bool has_digit = false;
    for (char c : code) {
      has_alpha |= std::isupper(static_cast<unsigned char>(c)) != 0;
      has_digit |= std::isdigit(static_cast<unsigned char>(c)) != 0;
    }
    if (!has_alpha || !has_digit) break;
    out.emplace_back(std::string(code), start);
  }
}

}  // namespace

bool code_matches(std::string_view pattern, std::string_view code) {
  if (pattern == "ALL") return true;
  return code.starts_with(pattern);
}

std::vector<Suppression> find_suppressions(const source::SourceFile& file, bool json) {
  std::vector<Suppression> out;
  for (std::uint32_t line = 1; line <= file.line_count(); ++line) {
    const std::string_view lt = file.line_text(line);
    const std::size_t line_start = file.line_start(line);
    std::size_t pos = 0;
    // A JSON file has no comments: its suppressions live in a "//" string value.
    const std::string_view marker = json ? "\"launchlint:" : "launchlint:";
    std::size_t found = lt.find(marker, pos);
    std::size_t noqa = json ? std::string_view::npos : lt.find("noqa:");
    if (found == std::string_view::npos && noqa == std::string_view::npos) continue;
    if (!json) {
      // Must be inside a comment: a '#' before it, preceded by start or whitespace (YAML, TOML, shell, Python).
      const std::size_t at = found != std::string_view::npos ? found : noqa;
      const std::size_t hash = lt.rfind('#', at);
      if (hash == std::string_view::npos) continue;
      if (hash > 0 && lt[hash - 1] != ' ' && lt[hash - 1] != '\t') continue;
      const std::string_view between = lt.substr(hash + 1, at - hash - 1);
      if (between.find_first_not_of(" \t") != std::string_view::npos) continue;
      Suppression s;
      s.line = line;
      s.own_line = lt.substr(0, hash).find_first_not_of(" \t") == std::string_view::npos;
      std::vector<std::pair<std::string, std::size_t>> codes;
      std::size_t i = at;
      if (found != std::string_view::npos && at == found) {
        i = found + marker.size();
        while (i < lt.size() && lt[i] == ' ') ++i;
        if (lt.substr(i).starts_with("file-ignore")) {
          s.scope = Suppression::Scope::File;
          i += 11;
        } else if (lt.substr(i).starts_with("ignore")) {
          i += 6;
        } else {
          continue;
        }
        if (!parse_code_list(lt, i, codes)) continue;
      } else {
        s.noqa = true;
        parse_noqa_codes(lt, noqa + 5, codes);
      }
      if (codes.empty()) continue;
      s.region = file.region(line_start + hash, line_start + lt.size());
      for (auto& [code, off] : codes) {
        s.code_regions.push_back(file.region(line_start + off, line_start + off + code.size()));
        s.codes.push_back(std::move(code));
      }
      s.used.assign(s.codes.size(), false);
      out.push_back(std::move(s));
    } else {
      std::size_t i = found + marker.size();
      while (i < lt.size() && lt[i] == ' ') ++i;
      if (!lt.substr(i).starts_with("file-ignore")) continue;
      i += 11;
      std::vector<std::pair<std::string, std::size_t>> codes;
      if (!parse_code_list(lt, i, codes) || codes.empty()) continue;
      Suppression s;
      s.scope = Suppression::Scope::File;
      s.line = line;
      s.region = file.region(line_start + found, line_start + lt.size());
      for (auto& [code, off] : codes) {
        s.code_regions.push_back(file.region(line_start + off, line_start + off + code.size()));
        s.codes.push_back(std::move(code));
      }
      s.used.assign(s.codes.size(), false);
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace lint::rule
