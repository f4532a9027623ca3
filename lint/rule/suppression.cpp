#include "lint/rule/suppression.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>

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
  // A JSON file has no comments: its suppressions live in a "//" string value.
  const std::string_view marker = json ? "\"launchlint:" : "launchlint:";
  // The lines that hold a marker, found by searching the whole text (a search per line cost more than the rest of
  // this function): the next occurrence of each marker, searched again only once the line it is on is done.
  const std::string_view text = file.text();
  const std::boyer_moore_horspool_searcher find_marker(marker.begin(), marker.end());
  constexpr std::string_view kNoqa = "noqa";
  const std::boyer_moore_horspool_searcher find_noqa(kNoqa.begin(), kNoqa.end());
  const auto search = [&text](const auto& searcher, std::size_t from) {
    const auto it = std::search(text.begin() + static_cast<std::ptrdiff_t>(from), text.end(), searcher);
    return it == text.end() ? std::string_view::npos : static_cast<std::size_t>(it - text.begin());
  };
  std::size_t next_marker = search(find_marker, 0);
  std::size_t next_noqa = json ? std::string_view::npos : search(find_noqa, 0);
  const auto line_count = static_cast<std::uint32_t>(file.line_count());
  for (;;) {
    const std::size_t hit = std::min(next_marker, next_noqa);
    if (hit == std::string_view::npos) break;
    const std::uint32_t line = file.position_at(hit).line;
    const std::size_t next_line = line < line_count ? file.line_start(line + 1) : text.size();
    if (next_marker < next_line) next_marker = search(find_marker, next_line);
    if (next_noqa < next_line) next_noqa = search(find_noqa, next_line);
    const std::string_view lt = file.line_text(line);
    const std::size_t line_start = file.line_start(line);
    const std::size_t found = lt.find(marker);
    const std::size_t noqa = json ? std::string_view::npos : lt.find("noqa");
    if (found == std::string_view::npos && noqa == std::string_view::npos) continue;
    Suppression s;
    s.line = line;
    std::size_t i = 0;
    std::size_t hash = 0;
    bool is_noqa = false;
    if (json) {
      i = found + marker.size();
      s.region = file.region(line_start + found, line_start + lt.size());
    } else {
      // Must be inside a comment: a '#' before it, preceded by start or whitespace (YAML, TOML, shell, Python).
      const std::size_t at = found != std::string_view::npos ? found : noqa;
      hash = lt.rfind('#', at);
      if (hash == std::string_view::npos) continue;
      if (hash > 0 && lt[hash - 1] != ' ' && lt[hash - 1] != '\t') continue;
      const std::string_view between = lt.substr(hash + 1, at - hash - 1);
      if (between.find_first_not_of(" \t") != std::string_view::npos) continue;
      is_noqa = at != found;
      if (is_noqa) {
        // `noqa` as a word: `# noqa`, `# noqa: X`, `# NOQA`; not `# noqa_helper`.
        const std::size_t after = noqa + 4;
        if (after < lt.size() && (is_code_char(lt[after]) || lt[after] == '_' || lt[after] == '-')) continue;
      }
      s.own_line = lt.substr(0, hash).find_first_not_of(" \t") == std::string_view::npos;
      s.region = file.region(line_start + hash, line_start + lt.size());
      i = is_noqa ? noqa + 4 : found + marker.size();
    }
    std::vector<std::pair<std::string, std::size_t>> codes;
    if (is_noqa) {
      s.noqa = true;
      if (i < lt.size() && lt[i] == ':') {
        parse_noqa_codes(lt, i + 1, codes);
      }
      if (codes.empty()) {
        s.bare_noqa = true;
        s.own_line = false;  // a blanket `# noqa` covers its own line only (flake8, ruff)
        s.problem = i < lt.size() && lt[i] == ':'
                        ? "A `# noqa:` without codes suppresses no launchlint finding; name the code: `# noqa: CODE`"
                        : "A bare `# noqa` suppresses no launchlint finding; name the code: `# noqa: CODE`";
      }
    } else {
      while (i < lt.size() && lt[i] == ' ') ++i;
      const std::string_view rest = lt.substr(i);
      std::string_view directive;
      if (rest.starts_with("file-ignore")) {
        s.scope = Suppression::Scope::File;
        directive = "file-ignore";
      } else if (rest.starts_with("ignore") && !json) {
        directive = "ignore";
      }
      if (directive.empty()) {
        std::size_t w = 0;
        while (w < rest.size() && (is_code_char(rest[w]) || rest[w] == '-' || rest[w] == '_')) ++w;
        s.problem = json ? "A JSON suppression suppresses nothing unless it is `\"//\": \"launchlint: file-ignore[CODE]\"`"
                         : "Unknown launchlint directive '" + std::string(rest.substr(0, w)) +
                               "' suppresses nothing: write `launchlint: ignore[CODE]` or `launchlint: file-ignore[CODE]`";
      } else {
        i += directive.size();
        if (i >= lt.size() || lt[i] != '[') {
          s.problem = "`launchlint: " + std::string(directive) +
                      "` names no code, so it suppresses nothing; write `launchlint: " + std::string(directive) +
                      "[CODE, ...]`";
        } else if (!parse_code_list(lt, i, codes)) {
          s.problem = "Malformed `launchlint: " + std::string(directive) + "[...]` suppresses nothing: write codes such as FSDP001 " +
                      "between the brackets, separated by commas, and close the bracket";
          codes.clear();
        } else if (codes.empty()) {
          s.problem = "`launchlint: " + std::string(directive) + "[]` names no code, so it suppresses nothing";
        }
      }
    }
    for (auto& [code, off] : codes) {
      s.code_regions.push_back(file.region(line_start + off, line_start + off + code.size()));
      s.codes.push_back(std::move(code));
    }
    s.used.assign(s.codes.size(), false);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace lint::rule
