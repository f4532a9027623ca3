// Resolution: the effective configuration of a launch, with the real precedence of each tool
// (knowledge/accelerate_fsdp.md §3, trainer_deepspeed_torchtitan.md §A.5).
#pragma once

#include "lint/model/launch.hpp"
#include "lint/parse/shell_reader.hpp"

namespace lint::model {

/// The launch of one file linted alone. An accelerate config alone is taken as `accelerate launch --config_file`
/// it; a script alone leaves every value the launcher could supply (environment) unknown.
Launch resolve_file(const Document& doc);

/// The documents bound to one launch command.
struct BoundInputs {
  const Document* script_doc = nullptr;      ///< the launch script the command is in
  const parse::LaunchCommand* command = nullptr;
  const Document* accelerate_config = nullptr;
  const Document* python = nullptr;          ///< the training script
  const Document* trainer_fsdp_config = nullptr;  ///< `--fsdp_config x.json` given to the Trainer
  const Document* deepspeed = nullptr;
  const Document* torchtitan = nullptr;
  const Document* axolotl = nullptr;
  const Document* llamafactory = nullptr;
};

/// The effective configuration of a launch bound across files, with the real precedence (knowledge §3.1):
/// Python plugin field > Trainer plugin args (for the keys it sets) > `--fsdp_*` flag > config file > flag
/// default > inherited environment (for the keys the launcher leaves unset) > plugin default.
Launch resolve_bound(const BoundInputs& in);

/// Canonical value of one accelerate fsdp_config entry as accelerate parses it (`SHARD_GRAD_OP` for `2` or
/// `shard_grad_op`, booleans from truth strings, versions as ints). Values accelerate would reject are returned
/// as written, so rules can report them.
Value normalise_fsdp_value(std::string_view prefixed_key, const Value& written);

/// Whether activation checkpointing is on anywhere in a launch, and the assignment that says so.
struct CheckpointingState {
  enum class State : std::uint8_t { Off, On, Unknown } state = State::Unknown;
  const Setting* site = nullptr;  ///< the assignment that turned it on (On) or the unknown one (Unknown)
};
CheckpointingState activation_checkpointing(const Launch& launch);

/// True when the effective FSDP configuration keeps parameters unsharded from forward to backward (FSDP1
/// SHARD_GRAD_OP / HYBRID_SHARD_ZERO2, FSDP2 reshard_after_forward=False); nullopt when not known.
std::optional<bool> keeps_params_unsharded(const Launch& launch, const Setting** site);

/// Converts a parsed config node into a Value (regions kept).
Value value_of(const parse::Node& node);

}  // namespace lint::model
