// DeepSpeed: how its JSON config is recognised and how many processes the `deepspeed` launcher starts. (What the
// JSON says is read by the DeepSpeed rules; the ZeRO settings join the effective configuration here as they are
// modelled.)
#pragma once

#include <cstdint>
#include <optional>

#include "lint/parse/node.hpp"
#include "lint/parse/shell_reader.hpp"

namespace lint::model::deepspeed {

/// A JSON object is a DeepSpeed config: a ZeRO section or a batch-size key, or an fp16/bf16 section with
/// optimizer or gradient settings.
bool looks_like_config(const parse::Node& root);

/// `deepspeed --num_gpus N [--num_nodes M]`: N*M processes; nullopt when a hostfile or `--include` decides, or the
/// counts are not known (without --num_gpus the launcher uses every visible GPU).
std::optional<std::int64_t> launcher_world_size(const parse::LaunchCommand& cmd);

}  // namespace lint::model::deepspeed
