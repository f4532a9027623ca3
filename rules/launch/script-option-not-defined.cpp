// LCH013: the launch command passes the training script a long option (`--config x.yaml`) that the script's argparse
// parser does not define, nor abbreviates: parse_args() exits with "unrecognized arguments" (CPython v3.11.7
// Lib/argparse.py:1868-1872, exit status 2 at 2630) before anything is trained. Only for a script whose one argparse
// parser is statically known (rules/launch/argparse_support.hpp); silent for anything else.
#include <string>
#include <vector>

#include "rules/launch/argparse_support.hpp"
#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

bool runs_script(parse::LaunchTool t) {
  return launch::is_process_launcher(t) || t == parse::LaunchTool::Python;
}

/// The option strings of the parser closest to `option` (same name with `_` and `-` swapped, or sharing the
/// longest prefix), for the message; empty when none is close.
std::string closest(const std::vector<std::string>& options, const std::string& option) {
  std::string swapped = option;
  for (std::size_t i = 2; i < swapped.size(); ++i) {
    if (swapped[i] == '_')
      swapped[i] = '-';
    else if (swapped[i] == '-')
      swapped[i] = '_';
  }
  for (const std::string& o : options) {
    if (o == swapped) return o;
  }
  std::string best;
  std::size_t best_len = 0;
  for (const std::string& o : options) {
    if (!o.starts_with("--")) continue;
    std::size_t n = 2;
    while (n < o.size() && n < option.size() && o[n] == option[n]) ++n;
    if (n > best_len) {
      best_len = n;
      best = o;
    }
  }
  return best_len >= 5 ? best : std::string();
}

class ScriptOptionNotDefined final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command_document == nullptr) return;
    const parse::LaunchCommand& c = *l.command;
    if (!runs_script(c.tool) || c.module || !c.script || !c.script->known) return;
    // Exactly the script the command names: a launch bound to another file (an entry point followed through its
    // imports) or to several Python files leaves open who reads the command line.
    const model::Document* script = nullptr;
    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      if (script != nullptr) return;
      script = d;
    }
    if (script == nullptr || launch::basename(script->path()) != launch::basename(c.script->text)) return;
    // A script that edits its own command line before parsing it.
    if (script->source->text().find("sys.argv") != std::string::npos) return;
    const std::optional<launch::ArgparseParser> parser = launch::read_argparse(*script);
    if (!parser) return;

    const auto* own = launch::is_process_launcher(c.tool) ? &launch::launcher_flags(c.tool) : nullptr;
    for (const parse::Word& w : c.script_args) {
      if (!w.known) continue;
      if (w.text == "--") break;  // everything after is positional
      if (!w.text.starts_with("--") || w.text.size() <= 2) continue;
      const std::string option = w.text.substr(0, w.text.find('='));
      std::string matched;
      int prefixed = 0;
      for (const std::string& o : parser->options) {
        if (o == option) {
          matched = o;
          prefixed = 0;
          break;
        }
        if (parser->allow_abbrev && o.starts_with(option)) {
          ++prefixed;
          matched = o;
        }
      }
      if (!matched.empty() && prefixed <= 1) {
        // An option with nargs=argparse.REMAINDER takes the rest of the line.
        if (std::find(parser->remainder_options.begin(), parser->remainder_options.end(), matched) !=
            parser->remainder_options.end())
          break;
        continue;
      }
      if (prefixed > 1) continue;  // ambiguous: argparse rejects it too, with another message
      // A launcher flag written after the script is LCH001's.
      if (own != nullptr && own->contains(launch::flag_name(option))) continue;
      const std::string near = closest(parser->options, option);
      std::string message = "`" + option + "` is not an option of `" + std::string(launch::basename(script->path())) +
                            "`: its argparse parser defines no such option string" +
                            std::string(parser->allow_abbrev ? " (nor one it abbreviates)" : "") +
                            ", so parse_args() exits with \"error: unrecognized arguments: ...\" naming it before "
                            "training starts.";
      message += near.empty() ? " Remove it, or define it in the parser."
                              : " The parser defines `" + near + "`; use that spelling, or define `" + option + "`.";
      ctx.report(
          l.command_document->path(), w.region, std::move(message),
          {rule::RelatedLocation{script->path(), parser->parse->region, "The script's arguments are parsed here."}});
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_script_option_not_defined() {
  return std::make_unique<ScriptOptionNotDefined>();
}

}  // namespace lint::rules
