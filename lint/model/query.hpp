// Questions rules ask about a launch. Rules use these (and Launch's get / value / assignments) rather than the
// resolver's internals, so the tool modules can change how they collect without touching the rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "lint/model/launch.hpp"

// The queries live in lint::model::query, not lint::model: argument-dependent lookup on a Launch would otherwise
// pull these common names (world_size, deepspeed_config, ...) into every rule and clash with a rule's own helpers.
namespace lint::model::query {

/// Whether activation checkpointing is on anywhere in a launch, and the assignment that says so.
struct CheckpointingState {
  enum class State : std::uint8_t { Off, On, Unknown } state = State::Unknown;
  const Setting* site = nullptr;  ///< the assignment that turned it on (On) or the unknown one (Unknown)
  /// Unknown only because no launcher is known that could export FSDP_ACTIVATION_CHECKPOINTING (a script linted
  /// alone): everything the launch itself writes leaves checkpointing off.
  bool unknown_from_launcher_only = false;
};
CheckpointingState activation_checkpointing(const Launch& launch);

/// True when the effective FSDP configuration keeps parameters unsharded from forward to backward (FSDP1
/// SHARD_GRAD_OP / HYBRID_SHARD_ZERO2, FSDP2 reshard_after_forward=False); nullopt when not known.
std::optional<bool> keeps_params_unsharded(const Launch& launch, const Setting** site);

/// The number of training processes, when known (unknown is not 1).
std::optional<std::int64_t> world_size(const Launch& launch);
/// True when FSDP is known to be on.
bool fsdp_enabled(const Launch& launch);
/// The effective FSDP version (1 or 2), when known.
std::optional<int> fsdp_version(const Launch& launch);

/// The effective setting that decided `key`, when it was written somewhere (not a default), else nullptr.
const Setting* written_site(const Launch& launch, std::string_view key);

/// The first document of a kind among the launch's files (nullptr when none).
const Document* document_of_kind(const Launch& launch, DocKind kind);
/// The launch's accelerate config file, if any.
const Document* accelerate_config(const Launch& launch);
/// The launch's DeepSpeed JSON (given to the Trainer, the launcher or named by a LLaMA-Factory YAML), if any.
const Document* deepspeed_config(const Launch& launch);
/// The launch's training script, if any.
const Document* training_script(const Launch& launch);
/// The launch command, when the launch has one (not for a file linted alone).
const parse::LaunchCommand* launch_command(const Launch& launch);
/// True when the launch's file at `path` is also bound by another launch command that may start more than one process
/// (its count above 1 or not known from the command): the file serves that launch too.
bool shared_with_larger_launch(const Launch& launch, std::string_view path);

}  // namespace lint::model::query

namespace lint::model {
// Older spellings, kept for the rules written against resolve.hpp.
using query::activation_checkpointing;
using query::CheckpointingState;
using query::keeps_params_unsharded;
}  // namespace lint::model
