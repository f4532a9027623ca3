// torch and Lightning: FSDP1 `FullyShardedDataParallel(...)`, FSDP2 `fully_shard(...)`, Lightning's
// `FSDPStrategy(...)`, the checkpointing calls of a script, and the launchers that start processes without accelerate's
// launcher (torchrun / `python -m torch.distributed.run`, plain `python`, `deepspeed`).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"
#include "lint/model/resolve.hpp"

namespace lint::model::torch {

/// Whether a call named `FullyShardedDataParallel` or `fully_shard` is torch's: the bare name (imported, or from a
/// star import) or a name qualified into `torch.`. A method of the project's own objects
/// (`model.fully_shard(config)`, a framework's wrapper) or a name imported from another package is not.
bool is_torch_fsdp_call(const PyCall& c);

/// The calls of `py` named `name` (FullyShardedDataParallel / fully_shard) that are torch's (is_torch_fsdp_call).
std::vector<const PyCall*> torch_fsdp_calls(const PythonFacts& py, std::string_view name);

/// FullyShardedDataParallel(...) (FSDP1), fully_shard(...) (FSDP2), Lightning's FSDPStrategy(...).
void collect_calls(const Document& doc, const PythonFacts& py, Launch& l);

/// Calls that turn activation checkpointing on in the script itself (gradient_checkpointing_enable,
/// prepare_model_for_kbit_training, apply_activation_checkpointing, checkpoint_wrapper, ...).
void collect_checkpointing_calls(const Document& doc, const PythonFacts& py, Launch& l);

/// `torchrun --nproc_per_node N --nnodes M` (both default 1); nullopt when not statically known.
std::optional<std::int64_t> torchrun_world_size(const parse::LaunchCommand& cmd);

/// torchrun / python / deepspeed: FSDP only from the script's objects or the environment, the process count from
/// the launcher's flags.
void resolve_launch(const BoundInputs& in, Launch& l);

}  // namespace lint::model::torch
