// LCH002: `accelerate launch python train.py`, `torchrun python train.py`: the launcher runs the script with Python
// itself, so `python` becomes the script.
#include <string>

#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

class InterpreterAsScript final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command_document == nullptr) return;
    const parse::LaunchCommand& cmd = *l.command;
    if (!launch::is_process_launcher(cmd.tool) || !cmd.script || cmd.module) return;
    if (!cmd.script->known || !launch::is_python_interpreter(cmd.script->text)) return;
    // `--no_python` / `--no-python` runs the script word as an executable: `python train.py` is then right.
    for (const parse::Flag& f : cmd.flags) {
      if (f.name == "no_python") return;
    }
    const std::string launcher(parse::to_string(cmd.tool));
    const std::string next = cmd.script_args.empty() ? std::string("train.py") : cmd.script_args.front().text;
    ctx.report(l.command_document->path(), cmd.script->region,
               "`" + launcher + "` starts each process as `python <script> ...` itself, so `" + cmd.script->text +
                   "` is taken as the training script: every process runs `python " + cmd.script->text + " " + next +
                   "` and Python fails with `can't open file '.../" + std::string(launch::basename(cmd.script->text)) +
                   "'`. Remove `" + cmd.script->text + "` (write `" + launcher + " ... " + next +
                   "`), or pass `--no_python` if the command is meant to be run as is.");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_interpreter_as_script() {
  return std::make_unique<InterpreterAsScript>();
}

}  // namespace lint::rules
