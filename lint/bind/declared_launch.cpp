#include "lint/bind/declared_launch.hpp"

#include <filesystem>

namespace lint::bind {

std::vector<parse::LaunchCommand> declared_commands(const DeclaredLaunch& dl, const model::Document& cfg) {
  std::vector<parse::LaunchCommand> cmds;
  if (!dl.command.empty() && dl.command_end > dl.command_begin && dl.command_end <= cfg.source->text().size()) {
    std::string blanked = cfg.source->text();
    for (std::size_t k = 0; k < blanked.size(); ++k) {
      if ((k < dl.command_begin || k >= dl.command_end) && blanked[k] != '\n' && blanked[k] != '\r') blanked[k] = ' ';
    }
    const source::SourceFile command(cfg.path(), std::move(blanked));
    cmds = parse::find_launch_commands(command, false);
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
