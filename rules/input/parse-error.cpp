// LL001: a config file that is not well-formed, or a Python file with a syntax error.
#include <algorithm>
#include <cctype>
#include <filesystem>

#include "lint/rule/rule.hpp"

namespace lint::rules {
namespace {

/// `ds_config_TEMPLATE.json`, `template-fsdp.yaml`: a file its project fills in before use.
bool named_as_template(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  return name.find("template") != std::string::npos;
}

/// The placeholder a template holds where the parser stopped: `{{ var }}` or `${VAR}` on that line, or a bare
/// upper-case identifier such as `BATCH_SIZE_PER_GPU` (the form DeepSpeedExamples' templates use, filled in by
/// `sed`). Empty when the text there is not a placeholder.
std::string placeholder_at(const source::SourceFile& src, const source::Region& at) {
  const std::string& text = src.text();
  const std::size_t i = std::min(at.begin_byte, text.size());
  // A templating expression anywhere on the error's line (the parser may stop inside it).
  const std::string_view line = src.line_text(at.begin.line);
  for (const auto& [open, close] : {std::pair<std::string_view, std::string_view>{"{{", "}}"}, {"${", "}"}}) {
    const std::size_t from = line.find(open);
    if (from == std::string_view::npos) continue;
    const std::size_t end = line.find(close, from + open.size());
    if (end != std::string_view::npos) return std::string(line.substr(from, end + close.size() - from));
  }
  const std::string_view rest = std::string_view(text).substr(i, 120);
  std::size_t n = 0;
  bool has_upper = false;
  while (n < rest.size() && (std::isupper(static_cast<unsigned char>(rest[n])) ||
                             std::isdigit(static_cast<unsigned char>(rest[n])) || rest[n] == '_')) {
    has_upper |= std::isupper(static_cast<unsigned char>(rest[n])) != 0;
    ++n;
  }
  if (n >= 2 && has_upper && !std::isdigit(static_cast<unsigned char>(rest[0])) &&
      (n == rest.size() || !std::isalnum(static_cast<unsigned char>(rest[n]))))
    return std::string(rest.substr(0, n));
  return {};
}

class ParseError final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.read_error || !doc.report_parse_errors) return;
    const auto& errors = doc.parse_errors();
    if (errors.empty()) return;
    // A template is not meant to parse until its placeholders are filled in: one info, not an error per spot.
    const bool config = doc.format == parse::Format::Json || doc.format == parse::Format::Yaml ||
                        doc.format == parse::Format::Toml;
    if (config && doc.source) {
      const std::string placeholder = placeholder_at(*doc.source, errors.front().region);
      if (!placeholder.empty() && (named_as_template(doc.path()) || placeholder.front() == '{' ||
                                   placeholder.front() == '$')) {
        ctx.report(doc.path(), errors.front().region,
                   "This file is a template: placeholder `" + placeholder +
                       "` is filled in before use, so the file is not checked. Lint the file generated from it.",
                   {}, rule::Severity::Info);
        return;
      }
    }
    for (const parse::ParseError& e : errors) {
      std::string message = e.message;
      if (!message.empty() && message.back() != '.') message += '.';
      ctx.report(doc.path(), e.region, message);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_parse_error() { return std::make_unique<ParseError>(); }

}  // namespace lint::rules
