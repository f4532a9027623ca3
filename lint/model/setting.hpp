// Settings: typed values with provenance, and the canonical keys of the effective configuration.
#pragma once

#include <cstddef>
#include <cstdint>
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

/// The typed source of an assignment, finer than Origin: each launcher's precedence is a rank table over these
/// (lint/model/precedence.hpp). Decisions read this, never `note` (which is presentation only).
enum class SourceKind : std::uint8_t {
  Unspecified,               ///< not set by the collector: derived from Origin (source_kind_of)
  TorchCall,                 ///< torch `FullyShardedDataParallel(...)` / `fully_shard(...)`
  LightningStrategy,         ///< Lightning `FSDPStrategy(...)`
  PluginField,               ///< a `FullyShardedDataParallelPlugin` field or attribute set in the script
  TrainerArgument,           ///< TrainingArguments / TRL config / HfArgumentParser CLI / Trainer fsdp_config
  TrainerFsdp1StrategyWord,  ///< the Trainer's FSDP1 strategy word, passed where FSDP1 never reads it
  ScriptCall,                ///< other calls in the script (`gradient_checkpointing_enable()`, ...)
  LauncherFlag,              ///< a launcher flag (`accelerate launch --x`, torchrun's process count)
  ConfigFile,                ///< a config file (accelerate YAML, torchtitan TOML, axolotl YAML, DeepSpeed JSON)
  LauncherDefault,           ///< the default the launcher exports when nothing sets it (a flag's default)
  LibraryDefault,            ///< a library default (the plugin's, Accelerator's, torchtitan's)
  InheritedEnv,              ///< an environment variable of the launch script that the launcher passes through
  EnvOverwrittenByLauncher,  ///< an environment variable of the launch script that the launcher always overwrites
};
inline constexpr std::size_t kSourceKindCount = 13;

std::string_view to_string(SourceKind k);

/// One assignment of one setting somewhere in the launch.
struct Setting {
  std::string key;        ///< canonical key, see keys below
  Value value;            ///< normalised value (strategy names upper-case, booleans parsed where the tool parses them)
  Value written;          ///< the value as written (before normalisation)
  std::string path;       ///< the file ("" for defaults)
  source::Region region;  ///< where it is written (the value; for a flag, the flag and its value)
  Origin origin = Origin::Default;
  std::string spelled;  ///< how the user wrote the key: `fsdp_config.fsdp_sharding_strategy`, `--fsdp_version`
  std::string note;     ///< presentation only: for defaults, whose default it is ("accelerate launch default")
  SourceKind source = SourceKind::Unspecified;  ///< what precedence reads (Unspecified: derived from origin)
  /// A call's own default (`DPOConfig(...)` leaving `gradient_checkpointing` out): the value the class gives a
  /// keyword the call does not pass, placed at the call. Not written by the user: there is nothing to remove.
  bool call_default = false;
};

/// The typed source of `s`: its own when set, else the one its Origin implies (Default: a library default).
SourceKind source_kind_of(const Setting& s);

/// Whether `s` is a call's own default (model::call_default_setting).
inline bool is_call_default(const Setting& s) {
  return s.call_default;
}

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
