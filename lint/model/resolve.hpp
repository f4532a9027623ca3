// Resolution: the effective configuration of a launch, with the real precedence of each tool. This file only
// dispatches: each tool family's schema and collectors live in lint/model/<tool>/ (accelerate, trainer, torch,
// torchtitan, axolotl, llamafactory, deepspeed), the precedence in lint/model/precedence.hpp, and the questions
// rules ask in lint/model/query.hpp (included here for the rules that still include this header).
#pragma once

#include "lint/model/launch.hpp"
#include "lint/model/query.hpp"
#include "lint/parse/shell_reader.hpp"

namespace lint::model {

/// The launch of one file linted alone. An accelerate config alone is taken as `accelerate launch --config_file`
/// it; a script alone leaves every value the launcher could supply (environment) unknown.
Launch resolve_file(const Document& doc);

/// The documents bound to one launch command.
struct BoundInputs {
  const Document* script_doc = nullptr;  ///< the launch script the command is in
  const parse::LaunchCommand* command = nullptr;
  std::optional<parse::WorkDir> workdir;  ///< where the command runs, when its script or CI step moves it
  const Document* accelerate_config = nullptr;
  const Document* python = nullptr;               ///< the training script
  const Document* trainer_fsdp_config = nullptr;  ///< `--fsdp_config x.json` given to the Trainer
  const Document* deepspeed = nullptr;
  const Document* torchtitan = nullptr;
  const Document* axolotl = nullptr;
  const Document* llamafactory = nullptr;
  const Document* trainer_args = nullptr;  ///< a TrainingArguments YAML given to the script
  const Document* hostfile = nullptr;      ///< `deepspeed -H/--hostfile` (any readable file)
  std::vector<ImportedModule> imported;    ///< modules of the project the training script calls into
};

/// The effective configuration of a launch bound across files, with the real precedence (accelerate
/// utils/dataclasses.py:1821-1961, commands/launch.py:1259-1271; transformers trainer.py:819-829):
/// Python plugin field > Trainer plugin args (for the keys it sets) > `--fsdp_*` flag > config file > flag
/// default > inherited environment (for the keys the launcher leaves unset) > plugin default.
Launch resolve_bound(const BoundInputs& in);

/// True when the command starts one process by its own flags: plain `python` (no srun/mpirun before it), `torchrun`
/// or `deepspeed` whose counts come to 1. False when it may start more or the count is not known from the command.
bool single_process_command(const parse::LaunchCommand& cmd);

/// Counts, on each file a bound command names, the commands that bind it and those that start one process
/// (Document::bound_launches, bound_single_process_launches). Runs once, after binding and before resolving.
void count_binding_launches(const std::vector<BoundInputs>& bound);

/// Canonical value of one accelerate fsdp_config entry as accelerate parses it (`SHARD_GRAD_OP` for `2` or
/// `shard_grad_op`, booleans from truth strings, versions as ints). Values accelerate would reject are returned
/// as written, so rules can report them.
Value normalise_fsdp_value(std::string_view prefixed_key, const Value& written);

/// Converts a parsed config node into a Value (regions kept).
Value value_of(const parse::Node& node);

}  // namespace lint::model
