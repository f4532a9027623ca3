#include "lint/bind/declared_launch.hpp"

#include <filesystem>

namespace lint::bind {

namespace {

/// A region of a command parsed alone, moved to where the command's text lies in the config (`at`: its first byte).
void place(source::Region& r, const source::SourceFile& config, std::size_t at) {
  if (r.valid()) r = config.region(at + r.begin_byte, at + r.end_byte);
}

void place(parse::Word& w, const source::SourceFile& config, std::size_t at) { place(w.region, config, at); }

void place(parse::LaunchCommand& c, const source::SourceFile& config, std::size_t at) {
  place(c.region, config, at);
  for (auto& [name, w] : c.env) place(w, config, at);
  for (parse::Word& w : c.launcher_args) place(w, config, at);
  for (parse::Flag& f : c.flags) {
    place(f.region, config, at);
    if (f.value) place(*f.value, config, at);
  }
  if (c.script) place(*c.script, config, at);
  for (parse::Word& w : c.script_args) place(w, config, at);
}

}  // namespace

std::vector<parse::LaunchCommand> declared_commands(const DeclaredLaunch& dl, const model::Document& cfg) {
  std::vector<parse::LaunchCommand> cmds;
  const std::string& text = cfg.source->text();
  if (!dl.command.empty() && dl.command_end > dl.command_begin && dl.command_end <= text.size()) {
    // The command's own text is parsed alone (parsing a copy of the whole config per entry made N entries
    // quadratic), and every region is then moved to its place in the config.
    const source::SourceFile command(cfg.path(), text.substr(dl.command_begin, dl.command_end - dl.command_begin));
    cmds = parse::find_launch_commands(command, false);
    for (parse::LaunchCommand& c : cmds) place(c, *cfg.source, dl.command_begin);
  } else if (!dl.files.empty()) {
    parse::LaunchCommand lc;
    lc.tool = parse::LaunchTool::AccelerateLaunch;
    for (const std::string& f : dl.files) {
      parse::Word w{f, true, {}};
      if (std::filesystem::path(f).extension() == ".py") {
        lc.script = w;
      } else {
        parse::Flag flag;
        flag.name = "config_file";
        flag.value = w;
        lc.flags.push_back(flag);
      }
    }
    cmds.push_back(std::move(lc));
  }
  return cmds;
}

}  // namespace lint::bind
