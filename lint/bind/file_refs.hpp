// File references of a launch command: which files it names (accelerate config, training script, Trainer
// fsdp_config, DeepSpeed JSON, torchtitan TOML, axolotl / LLaMA-Factory YAML) and where each may be on disk.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lint/model/document.hpp"
#include "lint/parse/shell_reader.hpp"
#include "lint/parse/shell_workdir.hpp"

namespace lint::bind {

/// Candidates for a path written in a launch command, paths as launchlint shows them, in the order they are
/// tried: against the command's working directory (`workdir`: a `cd` earlier in the script, a CI step's
/// working-directory), the script's folder (a CI workflow's: the repository root), then each project root above the
/// script (config::project_roots). The working directory of launchlint is used only when the script has no project
/// root, so the binding does not depend on where launchlint runs.
std::vector<std::string> path_candidates(const model::Document& script_doc, const parse::Word& w,
                                         const parse::WorkDir* workdir = nullptr);

/// Paths a launch command refers to, relative to the working directory, in the order they are tried.
struct FileRefs {
  std::vector<std::string> accelerate_config, script, trainer_fsdp_config, deepspeed, torchtitan, axolotl, llamafactory,
      trainer_args, hostfile;
  /// Each file the command names, as written, with what it is and its candidates (LL006 reports one that is not
  /// found). Modules (`-m pkg.mod`) are not listed: they may be installed packages.
  struct Written {
    std::string role;  ///< "accelerate config", "training script", ...
    parse::Word word;
    std::vector<std::string> candidates;
  };
  std::vector<Written> written;
  std::optional<parse::WorkDir> workdir;  ///< where the command runs, when its script or CI step moves it
};
/// Where each command of a script runs, by the byte its command starts at (a `cd` earlier in the script, a CI
/// step's working-directory). It reads the whole script: a caller with many commands of one script asks once.
using Workdirs = std::map<std::size_t, parse::WorkDir>;
Workdirs command_workdirs(const model::Document& script_doc);

FileRefs referenced_files(const model::Document& script_doc, const parse::LaunchCommand& command);
/// The same with where the command runs already known (`workdir`: the script's command_workdirs entry for the
/// command, nullptr when the script does not move it).
FileRefs referenced_files(const model::Document& script_doc, const parse::LaunchCommand& command,
                          const parse::WorkDir* workdir);

/// The DeepSpeed JSON a LLaMA-Factory YAML names (`deepspeed: path`), relative to where llamafactory-cli runs (the
/// launch script's folder, then the working directory); empty when it names none.
std::vector<std::string> llamafactory_deepspeed_candidates(const model::Document& script_doc,
                                                           const model::Document& yaml);

/// The DeepSpeed JSON another file of the launch names: accelerate's `deepspeed_config.deepspeed_config_file`,
/// axolotl's `deepspeed:`, a script's `TrainingArguments(deepspeed="x.json")`, `DeepSpeedStrategy(config="x.json")` or
/// `deepspeed.initialize(config="x.json")`. Candidates: relative to the working directory the launch implies (the
/// launch script's folder), to the naming file's folder, then to the working directory; empty when none is named.
std::vector<std::string> named_deepspeed_candidates(const model::Document& script_doc, const model::Document& referrer);

/// The part of a config's root mapping that binding reads (llamafactory_deepspeed_candidates and
/// named_deepspeed_candidates, the only readers of a config's tree between its per-file rules and its launches):
/// every `deepspeed` entry and every `deepspeed_config` entry with only its `deepspeed_config_file` entries, a
/// collection among their values kept as a stub (kind and region, no children). What the readers find in it is what
/// they find in the whole tree (the last occurrence of a key, its kind, text and region). A run that streams its
/// launches keeps only this of a launch config until the tree is read again for its launches (lint/driver).
parse::Node binding_view(const parse::Node& root);

}  // namespace lint::bind
