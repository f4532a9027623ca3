// File references of a launch command: which files it names (accelerate config, training script, Trainer
// fsdp_config, DeepSpeed JSON, torchtitan TOML, axolotl / LLaMA-Factory YAML) and where each may be on disk.
#pragma once

#include <string>
#include <vector>

#include "lint/model/document.hpp"
#include "lint/parse/shell_reader.hpp"

namespace lint::bind {

/// Candidates for a path written in a launch script: relative to the script's folder, then to the working
/// directory (the repository root when launchlint runs there). A CI workflow's steps run from the repository root.
std::vector<std::string> path_candidates(const model::Document& script_doc, const parse::Word& w);

/// Paths a launch command refers to, relative to the working directory, in the order they are tried.
struct FileRefs {
  std::vector<std::string> accelerate_config, script, trainer_fsdp_config, deepspeed, torchtitan, axolotl, llamafactory,
      trainer_args;
};
FileRefs referenced_files(const model::Document& script_doc, const parse::LaunchCommand& command);

/// The DeepSpeed JSON a LLaMA-Factory YAML names (`deepspeed: path`), relative to where llamafactory-cli runs (the
/// launch script's folder, then the working directory); empty when it names none.
std::vector<std::string> llamafactory_deepspeed_candidates(const model::Document& script_doc,
                                                           const model::Document& yaml);

/// The DeepSpeed JSON another file of the launch names: accelerate's `deepspeed_config.deepspeed_config_file`,
/// axolotl's `deepspeed:`, a script's `TrainingArguments(deepspeed="x.json")`, `DeepSpeedStrategy(config="x.json")` or
/// `deepspeed.initialize(config="x.json")`. Candidates: relative to the working directory the launch implies (the
/// launch script's folder), to the naming file's folder, then to the working directory; empty when none is named.
std::vector<std::string> named_deepspeed_candidates(const model::Document& script_doc, const model::Document& referrer);

}  // namespace lint::bind
