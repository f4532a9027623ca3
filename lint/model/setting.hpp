// Settings: typed values with provenance, and the canonical keys of the effective configuration.
#pragma once

#include <string>
#include <string_view>

#include "lint/model/value.hpp"
#include "lint/source/source_file.hpp"

namespace lint::model {

/// Which mechanism wrote a value. The order is not the precedence: precedence depends on the tool (resolve.cpp).
enum class Origin : std::uint8_t {
  ConfigFile,         ///< accelerate config file
  LaunchFlag,         ///< `accelerate launch --x` / torchrun flags
  Environment,        ///< an environment variable set in the launch script
  PluginObject,       ///< `FullyShardedDataParallelPlugin(...)` or an attribute set on it
  TrainingArguments,  ///< `TrainingArguments` / TRL configs / HfArgumentParser CLI arguments
  TrainerFsdpConfig,  ///< `fsdp_config` JSON file or dict given to the Trainer
  TorchCall,          ///< torch `FullyShardedDataParallel(...)` / `fully_shard(...)`
  ScriptCall,         ///< other calls in the script (`gradient_checkpointing_enable()`, ...)
  LightningStrategy,  ///< Lightning `FSDPStrategy(...)`
  TorchtitanConfig,   ///< torchtitan TOML
  AxolotlConfig,      ///< axolotl YAML
  DeepSpeedConfig,    ///< DeepSpeed JSON
  Default,            ///< a default of the tool (flag default or library default); no source location
};

std::string_view to_string(Origin o);

/// One assignment of one setting somewhere in the launch.
struct Setting {
  std::string key;        ///< canonical key, see keys below
  Value value;            ///< normalised value (strategy names upper-case, booleans parsed where the tool parses them)
  Value written;          ///< the value as written (before normalisation)
  std::string path;       ///< the file ("" for defaults)
  source::Region region;  ///< where it is written (the value; for a flag, the flag and its value)
  Origin origin = Origin::Default;
  std::string spelled;    ///< how the user wrote the key: `fsdp_config.fsdp_sharding_strategy`, `--fsdp_version`
  std::string note;       ///< for defaults: whose default it is ("accelerate launch default")
};

/// Canonical keys of the effective configuration.
namespace keys {
inline constexpr std::string_view kDistributedType = "distributed_type";
inline constexpr std::string_view kNumProcesses = "num_processes";
inline constexpr std::string_view kNumMachines = "num_machines";
inline constexpr std::string_view kWorldSize = "world_size";
inline constexpr std::string_view kMixedPrecision = "mixed_precision";
inline constexpr std::string_view kFsdpEnabled = "fsdp.enabled";
inline constexpr std::string_view kFsdpVersion = "fsdp.version";
inline constexpr std::string_view kShardingStrategy = "fsdp.sharding_strategy";
inline constexpr std::string_view kReshardAfterForward = "fsdp.reshard_after_forward";
inline constexpr std::string_view kActivationCheckpointing = "fsdp.activation_checkpointing";
inline constexpr std::string_view kAutoWrapPolicy = "fsdp.auto_wrap_policy";
inline constexpr std::string_view kMinNumParams = "fsdp.min_num_params";
inline constexpr std::string_view kTransformerLayerCls = "fsdp.transformer_layer_cls_to_wrap";
inline constexpr std::string_view kCpuRamEfficientLoading = "fsdp.cpu_ram_efficient_loading";
inline constexpr std::string_view kSyncModuleStates = "fsdp.sync_module_states";
inline constexpr std::string_view kUseOrigParams = "fsdp.use_orig_params";
inline constexpr std::string_view kOffloadParams = "fsdp.offload_params";
inline constexpr std::string_view kBackwardPrefetch = "fsdp.backward_prefetch";
inline constexpr std::string_view kForwardPrefetch = "fsdp.forward_prefetch";
inline constexpr std::string_view kStateDictType = "fsdp.state_dict_type";
inline constexpr std::string_view kGradientCheckpointing = "trainer.gradient_checkpointing";
inline constexpr std::string_view kModelGradientCheckpointing = "model.gradient_checkpointing_enable";
inline constexpr std::string_view kApplyActivationCheckpointing = "torch.apply_activation_checkpointing";
inline constexpr std::string_view kTorchtitanAcMode = "torchtitan.activation_checkpoint.mode";
inline constexpr std::string_view kLightningAcPolicy = "lightning.activation_checkpointing_policy";
}  // namespace keys

}  // namespace lint::model
