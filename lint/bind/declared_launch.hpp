// Launches declared in the project config (`[[launch]]` in launchlint.toml).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lint/model/document.hpp"
#include "lint/parse/shell_reader.hpp"

namespace lint::bind {

/// A launch declared in the project config (`[[launch]]`).
struct DeclaredLaunch {
  std::string name;
  std::string command;             ///< a launch command line, resolved like one in a script
  std::vector<std::string> files;  ///< or the files of the launch (an accelerate config and/or a script)
  std::string base_dir;
  std::string config_path;        ///< the project config it is declared in (findings point into it)
  std::size_t command_begin = 0;  ///< byte range of the command string's contents in that file
  std::size_t command_end = 0;
};

/// The launch commands of one declared launch: a command string is read as shell on its own and its positions placed
/// in the config file (linear in the command, whatever the config holds), a file list becomes `accelerate launch [--config_file c]
/// [script.py]`. `config` is the loaded project config.
std::vector<parse::LaunchCommand> declared_commands(const DeclaredLaunch& declared, const model::Document& config);

}  // namespace lint::bind
