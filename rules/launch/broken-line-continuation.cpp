// LCH003: a `\` followed by spaces, or a missing `\`, ends a launch command early; the next line, meant as more of
// its arguments, runs as a command of its own.
#include <string>
#include <string_view>

#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

/// A line that only makes sense as more arguments: it starts with an option (`--lr 1e-5`, `-m`), or with a
/// Python script while the command has none yet.
bool continues_arguments(std::string_view first_word, bool script_missing) {
  if (first_word.size() >= 2 && first_word[0] == '-' &&
      (first_word[1] == '-' || std::isalpha(static_cast<unsigned char>(first_word[1])) != 0))
    return true;
  return script_missing && first_word.ends_with(".py");
}

class BrokenLineContinuation final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    // Shell scripts and Makefiles only: a YAML folded block (`run: >`) joins its lines, and there the text is not
    // the shell's.
    if (!l.command || l.command_document == nullptr || l.command_document->kind != model::DocKind::LaunchScript) return;
    const parse::LaunchCommand& cmd = *l.command;
    const std::string_view text = l.command_document->source->text();
    const std::size_t end = std::min(cmd.region.end_byte, text.size());
    if (end == 0) return;
    const std::size_t line_end = std::min(text.find('\n', end), text.size());
    if (line_end >= text.size()) return;  // no next line
    const std::size_t line_start =
        text.rfind('\n', end - 1) == std::string_view::npos ? 0 : text.rfind('\n', end - 1) + 1;
    std::size_t trimmed = line_end;
    while (trimmed > line_start && is_blank(text[trimmed - 1])) --trimmed;
    std::size_t backslashes = 0;
    while (trimmed - backslashes > line_start && text[trimmed - backslashes - 1] == '\\') ++backslashes;
    const bool escaped_space = backslashes % 2 == 1 && trimmed < line_end && text[trimmed] != '\r';
    if (backslashes % 2 == 1 && !escaped_space) return;  // a real continuation (cannot end a command)
    if (!escaped_space) {
      // A line ending in an operator continues the list, not the command's arguments.
      const std::string_view body = text.substr(line_start, trimmed - line_start);
      for (std::string_view op : {"&&", "||", "|", ";", "&", "(", "{", "then", "do"}) {
        if (body.ends_with(op)) return;
      }
    }
    // The next line's first word.
    const std::size_t next_start = line_end + 1;
    std::size_t w = next_start;
    while (w < text.size() && (text[w] == ' ' || text[w] == '\t')) ++w;
    std::size_t we = w;
    while (we < text.size() && !is_blank(text[we]) && text[we] != '\n') ++we;
    const std::string_view first = text.substr(w, we - w);
    const bool script_missing = !cmd.script || (cmd.script->text.find_first_not_of(" \t") == std::string::npos);
    if (first.empty() || !continues_arguments(first, script_missing)) return;

    const source::SourceFile& src = *l.command_document->source;
    const std::string path = l.command_document->path();
    const std::string launcher(parse::to_string(cmd.tool));
    const std::vector<rule::RelatedLocation> related{{path, src.region(w, we), "this line runs as its own command"}};
    if (escaped_space) {
      ctx.report(path, src.region(trimmed - 1, line_end),
                 "This `\\` is followed by spaces, so it escapes a space instead of the line break: the `" + launcher +
                     "` command ends on this line with one more argument, a single space (an argparse script "
                     "rejects it: `unrecognized arguments`), and the next line (`" + std::string(first) +
                     " ...`) runs as a separate command (bash: `" + std::string(first) +
                     ": command not found`) whose arguments never reach the launch. Delete the spaces after `\\`.",
                 related);
    } else {
      ctx.report(path, src.region(w, we),
                 "The line before does not end with `\\`, so the `" + launcher +
                     "` command ends there and this line runs as a separate command (bash: `" + std::string(first) +
                     ": command not found`); its arguments never reach the launch. End the previous line with `\\`.",
                 {{path, cmd.region, "the launch command ends here"}});
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_broken_line_continuation() {
  return std::make_unique<BrokenLineContinuation>();
}

}  // namespace lint::rules
