// The accelerate config variables a DeepSpeed JSON replaces: accelerate raises when the config sets any of them
// (or mixed_precision) and a DeepSpeed JSON is used (accelerate v1.14.0 src/accelerate/utils/dataclasses.py:1506-1519,
// names with ACCELERATE_ / DEEPSPEED_ dropped; commands/launch.py:1388-1391). Shared by ACC006 and ACC015.
#pragma once

#include <array>
#include <string_view>

namespace lint::rules {

inline constexpr std::array<std::string_view, 8> kDeepSpeedJsonReplacedKeys = {
    "gradient_accumulation_steps", "gradient_clipping",     "zero_stage",
    "offload_optimizer_device",    "offload_param_device",  "offload_param_nvme_path",
    "offload_optimizer_nvme_path", "zero3_save_16bit_model"};

}  // namespace lint::rules
