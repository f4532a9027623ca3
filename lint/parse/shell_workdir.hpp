// Where each launch command of a shell script (or Makefile) runs, when the script says: a `cd DIR` earlier in it,
// or `cd "$(dirname "$0")/.."`. Kept apart from shell_reader.hpp so that LaunchCommand stays as it is.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "lint/source/source_file.hpp"

namespace lint::parse {

struct WorkDir {
  std::string path;              ///< as written; relative paths are relative to where the script is run
  bool from_script_dir = false;  ///< relative to the script's own folder (`cd "$(dirname "$0")"/..`)
  /// A CI job that checks its repository out into this folder of the workspace (`actions/checkout` with
  /// `path: src`) and runs the command from the workspace: a relative path `src/x.py` is the repository's `x.py`.
  std::string checkout_path;
  /// After a `cd` to a folder not statically known (`cd "$DIR"`, `cd` alone: $HOME): where the command runs is
  /// unknown, and so is what a relative path names (`path` is empty).
  bool unknown = false;
};

/// The working directory of each launch command that find_launch_commands(file, makefile) returns, by the byte
/// offset where the command begins; commands the script does not move are absent, commands after a `cd` to an unknown
/// folder are WorkDir::unknown.
std::map<std::size_t, WorkDir> command_workdirs(const source::SourceFile& file, bool makefile);

}  // namespace lint::parse
