// LCH001: a launcher flag written after the training script goes to the script, not to the launcher.
#include <array>
#include <set>
#include <string>

#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

/// True when the script's source names the flag (an argparse option, a dataclass field, a string): it may be
/// the script's own.
bool script_names(std::string_view source, const std::string& name) {
  if (source.find(name) != std::string_view::npos) return true;
  std::string dashed = name;
  for (char& c : dashed) {
    if (c == '_') c = '-';
  }
  return source.find(dashed) != std::string_view::npos;
}

/// A word that reads as a truth value (`true`, `'True'`, `1`, `yes`): what a user writes after a flag that takes none.
bool is_truth_word(std::string_view w) {
  for (std::string_view t : {"true", "True", "TRUE", "false", "False", "FALSE", "yes", "no", "1", "0"}) {
    if (w == t) return true;
  }
  return false;
}

class LauncherFlagAfterScript final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command_document == nullptr) return;
    const parse::LaunchCommand& cmd = *l.command;
    if (!launch::is_process_launcher(cmd.tool) || !cmd.script) return;
    const auto& flags = launch::launcher_flags(cmd.tool);
    const std::string launcher(parse::to_string(cmd.tool));
    // `--same_network true train.py`: the flag takes no value, so the truth value is read as the script and every
    // launcher flag after it goes to that "script" (accelerate#2240: the rendezvous endpoint became `None:None`).
    if (cmd.script->known && is_truth_word(cmd.script->text) && !cmd.flags.empty() && !cmd.flags.back().value &&
        !cmd.launcher_args.empty() && cmd.launcher_args.back().text.starts_with("-")) {
      std::string lost;
      for (const parse::Word& w : cmd.script_args) {
        if (!w.known || !w.text.starts_with("--") || flags.count(launch::flag_name(w.text)) == 0) continue;
        lost += (lost.empty() ? "`" : ", `") + w.text.substr(0, w.text.find('=')) + "`";
      }
      const std::string flag = cmd.launcher_args.back().text;
      ctx.report(l.command_document->path(), cmd.script->region,
                 "`" + flag + "` takes no value: `" + launcher + "` reads `" + cmd.script->text +
                     "` as the training script and passes everything after it to that script" +
                     (lost.empty() ? std::string(".") : ", so it never sees " + lost + ".") + " Write `" + flag +
                     "` alone.",
                 {rule::RelatedLocation{l.command_document->path(), cmd.launcher_args.back().region,
                                        "this flag takes no value"}});
      return;
    }
    // The script must be known: a flag of the same name may be its own.
    const model::Document* py = launch::python_script(l);
    if (py == nullptr) return;
    for (const parse::Word& w : cmd.script_args) {
      if (!w.known || !w.text.starts_with("--")) continue;
      const std::string name = launch::flag_name(w.text);
      if (flags.count(name) == 0 || script_names(py->source->text(), name)) continue;
      ctx.report(l.command_document->path(), w.region,
                 "`" + w.text.substr(0, w.text.find('=')) + "` comes after the script `" + cmd.script->text + "`: `" +
                     launcher + "` stops reading its own flags at the script and passes the rest to it, so the " +
                     "launcher never sees this flag (its value comes from the default or the config file) and the " +
                     "script, which does not define it, fails with `unrecognized arguments` (HfArgumentParser: "
                     "`Some specified arguments are not used`) or ignores it. Move it before `" +
                     cmd.script->text + "`.",
                 {rule::RelatedLocation{l.command_document->path(), cmd.script->region, "the script starts here"}});
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_launcher_flag_after_script() {
  return std::make_unique<LauncherFlagAfterScript>();
}

}  // namespace lint::rules
