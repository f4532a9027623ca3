#include "lint/model/accelerate/schema.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "lint/model/setting.hpp"
#include "lint/parse/integer.hpp"

namespace lint::model::accelerate {

namespace {

using T = FsdpValueType;
constexpr unsigned kV1 = 1;
constexpr unsigned kV2 = 2;
constexpr unsigned kBoth = 3;

// accelerate src/accelerate/commands/launch.py:513-604 and src/accelerate/utils/launch.py:304-332 (docs/sources.md);
// the plugin's own defaults without the launcher's environment: src/accelerate/utils/dataclasses.py:1815-2034.
constexpr std::array kFsdpKeys = {
    FsdpKey{"fsdp_version", keys::kFsdpVersion, T::Version, "1", kBoth, "1"},
    FsdpKey{"fsdp_sharding_strategy", keys::kShardingStrategy, T::Strategy, "FULL_SHARD", kV1, "FULL_SHARD"},
    FsdpKey{"fsdp_reshard_after_forward", keys::kReshardAfterForward, T::ReshardAfterForward, "true", kV2, "true"},
    FsdpKey{"fsdp_offload_params", keys::kOffloadParams, T::Truth, "false", kBoth, "false"},
    FsdpKey{"fsdp_auto_wrap_policy", keys::kAutoWrapPolicy, T::WrapPolicy, "", kBoth, "NO_WRAP",
            "FullyShardedDataParallelPlugin default when no wrap policy is set"},
    FsdpKey{"fsdp_transformer_layer_cls_to_wrap", keys::kTransformerLayerCls, T::String, "", kBoth},
    FsdpKey{"fsdp_min_num_params", keys::kMinNumParams, T::Int, "100000000", kBoth},
    FsdpKey{"fsdp_backward_prefetch", keys::kBackwardPrefetch, T::BackwardPrefetch, "", kV1, "NO_PREFETCH",
            "FullyShardedDataParallelPlugin default (None: no backward prefetch)"},
    FsdpKey{"fsdp_forward_prefetch", keys::kForwardPrefetch, T::Truth, "false", kV1, "false"},
    FsdpKey{"fsdp_state_dict_type", keys::kStateDictType, T::StateDictType, "", kBoth},
    FsdpKey{"fsdp_use_orig_params", keys::kUseOrigParams, T::Truth, "true", kV1, "false"},
    FsdpKey{"fsdp_sync_module_states", keys::kSyncModuleStates, T::Truth, "true", kV1, "false"},
    FsdpKey{"fsdp_cpu_ram_efficient_loading", keys::kCpuRamEfficientLoading, T::Truth, "true", kBoth, "false"},
    FsdpKey{"fsdp_activation_checkpointing", keys::kActivationCheckpointing, T::Truth, "false", kBoth, "false"},
    FsdpKey{"fsdp_activation_checkpointing_offload", "fsdp.activation_checkpointing_offload", T::Truth, "false", kV2,
            "false"},
    FsdpKey{"fsdp_ignored_modules", "fsdp.ignored_modules", T::String, "", kBoth},
};

// acc:src/accelerate/commands/config/config_args.py:75-252 (ClusterConfig, SageMakerConfig) and the legacy keys
// rewritten before the unknown-key check (L113-119).
constexpr std::array<std::string_view, 45> kTopLevel = {"compute_environment",
                                                        "distributed_type",
                                                        "mixed_precision",
                                                        "use_cpu",
                                                        "debug",
                                                        "num_processes",
                                                        "machine_rank",
                                                        "num_machines",
                                                        "gpu_ids",
                                                        "main_process_ip",
                                                        "main_process_port",
                                                        "rdzv_backend",
                                                        "same_network",
                                                        "main_training_function",
                                                        "enable_cpu_affinity",
                                                        "downcast_bf16",
                                                        "tpu_name",
                                                        "tpu_zone",
                                                        "tpu_use_cluster",
                                                        "tpu_use_sudo",
                                                        "command_file",
                                                        "commands",
                                                        "tpu_vm",
                                                        "tpu_env",
                                                        "fsdp_config",
                                                        "deepspeed_config",
                                                        "dynamo_config",
                                                        "fp8_config",
                                                        "parallelism_config",
                                                        "megatron_lm_config",
                                                        "mpirun_config",
                                                        "ipex_config",
                                                        "mpirun_hostfile",
                                                        "ec2_instance_type",
                                                        "iam_role_name",
                                                        "image_uri",
                                                        "profile",
                                                        "region",
                                                        "base_job_name",
                                                        "pytorch_version",
                                                        "transformers_version",
                                                        "py_version",
                                                        "sagemaker_inputs_file",
                                                        "sagemaker_metrics_file",
                                                        "additional_args"};
constexpr std::array<std::string_view, 2> kLegacyTopLevel = {"fp16", "dynamo_backend"};

constexpr std::array<std::string_view, 14> kDistributedTypes = {
    "NO",        "MULTI_CPU", "MULTI_GPU", "MULTI_NPU", "MULTI_MLU",   "MULTI_SDAA", "MULTI_MUSA",
    "MULTI_XPU", "DEEPSPEED", "FSDP",      "XLA",       "MEGATRON_LM", "MULTI_HPU",  "MULTI_NEURON"};
constexpr std::array<std::string_view, 4> kMixedPrecisions = {"no", "fp16", "bf16", "fp8"};
constexpr std::array<std::string_view, 2> kComputeEnvironments = {"LOCAL_MACHINE", "AMAZON_SAGEMAKER"};
// acc:src/accelerate/utils/dataclasses.py DynamoBackend members.
constexpr std::array<std::string_view, 16> kDynamoBackends = {
    "NO",  "EAGER",      "AOT_EAGER", "INDUCTOR", "AOT_TS_NVFUSER",          "NVPRIMS_NVFUSER",     "CUDAGRAPHS",
    "OFI", "FX2TRT",     "ONNXRT",    "TENSORRT", "AOT_TORCHXLA_TRACE_ONCE", "TORCHXLA_TRACE_ONCE", "IPEX",
    "TVM", "HPU_BACKEND"};
constexpr std::array<std::string_view, 7> kMultinodeLaunchers = {"pdsh",  "standard", "openmpi", "mvapich",
                                                                 "mpich", "nossh",    "slurm"};
constexpr std::array<std::string_view, 5> kStrategies = {"FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD", "HYBRID_SHARD",
                                                         "HYBRID_SHARD_ZERO2"};
constexpr std::array<std::string_view, 3> kWrapPolicies = {"TRANSFORMER_BASED_WRAP", "SIZE_BASED_WRAP", "NO_WRAP"};
constexpr std::array<std::string_view, 3> kBackwardPrefetches = {"BACKWARD_PRE", "BACKWARD_POST", "NO_PREFETCH"};
constexpr std::array<std::string_view, 3> kStateDictTypes = {"FULL_STATE_DICT", "LOCAL_STATE_DICT",
                                                             "SHARDED_STATE_DICT"};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::toupper(static_cast<unsigned char>(x)) == std::toupper(static_cast<unsigned char>(y));
         });
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1);
  std::vector<std::size_t> cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same =
          std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

constexpr std::array kPluginFields = {
    PluginField{"fsdp_version", "fsdp_version"},
    PluginField{"sharding_strategy", "fsdp_sharding_strategy"},
    PluginField{"reshard_after_forward", "fsdp_reshard_after_forward"},
    PluginField{"auto_wrap_policy", "fsdp_auto_wrap_policy"},
    PluginField{"min_num_params", "fsdp_min_num_params"},
    PluginField{"transformer_cls_names_to_wrap", "fsdp_transformer_layer_cls_to_wrap"},
    PluginField{"backward_prefetch", "fsdp_backward_prefetch"},
    PluginField{"forward_prefetch", "fsdp_forward_prefetch"},
    PluginField{"state_dict_type", "fsdp_state_dict_type"},
    PluginField{"use_orig_params", "fsdp_use_orig_params"},
    PluginField{"sync_module_states", "fsdp_sync_module_states"},
    PluginField{"cpu_ram_efficient_loading", "fsdp_cpu_ram_efficient_loading"},
    PluginField{"activation_checkpointing", "fsdp_activation_checkpointing"},
};

constexpr std::array kEnvVars = {
    EnvVar{"FSDP_VERSION", "fsdp_version", true},
    EnvVar{"FSDP_SHARDING_STRATEGY", "fsdp_sharding_strategy", true},
    EnvVar{"FSDP_RESHARD_AFTER_FORWARD", "fsdp_reshard_after_forward", true},
    EnvVar{"FSDP_OFFLOAD_PARAMS", "fsdp_offload_params", true},
    EnvVar{"FSDP_MIN_NUM_PARAMS", "fsdp_min_num_params", true},
    EnvVar{"FSDP_AUTO_WRAP_POLICY", "fsdp_auto_wrap_policy", false},
    EnvVar{"FSDP_TRANSFORMER_CLS_TO_WRAP", "fsdp_transformer_layer_cls_to_wrap", false},
    EnvVar{"FSDP_BACKWARD_PREFETCH", "fsdp_backward_prefetch", false},
    EnvVar{"FSDP_STATE_DICT_TYPE", "fsdp_state_dict_type", false},
    EnvVar{"FSDP_FORWARD_PREFETCH", "fsdp_forward_prefetch", true},
    EnvVar{"FSDP_USE_ORIG_PARAMS", "fsdp_use_orig_params", true},
    EnvVar{"FSDP_CPU_RAM_EFFICIENT_LOADING", "fsdp_cpu_ram_efficient_loading", true},
    EnvVar{"FSDP_SYNC_MODULE_STATES", "fsdp_sync_module_states", true},
    EnvVar{"FSDP_ACTIVATION_CHECKPOINTING", "fsdp_activation_checkpointing", true},
};

}  // namespace

std::span<const FsdpKey> fsdp_keys() {
  return kFsdpKeys;
}

const FsdpKey* find_fsdp_key(std::string_view prefixed_name) {
  for (const FsdpKey& k : kFsdpKeys) {
    if (k.name == prefixed_name) return &k;
  }
  return nullptr;
}

std::span<const std::string_view> top_level_keys() {
  return kTopLevel;
}

bool is_top_level_key(std::string_view key) {
  return std::find(kTopLevel.begin(), kTopLevel.end(), key) != kTopLevel.end() ||
         std::find(kLegacyTopLevel.begin(), kLegacyTopLevel.end(), key) != kLegacyTopLevel.end();
}

std::span<const std::string_view> distributed_types() {
  return kDistributedTypes;
}
std::span<const std::string_view> mixed_precisions() {
  return kMixedPrecisions;
}
std::span<const std::string_view> compute_environments() {
  return kComputeEnvironments;
}
std::span<const std::string_view> dynamo_backends() {
  return kDynamoBackends;
}
std::span<const std::string_view> multinode_launchers() {
  return kMultinodeLaunchers;
}
std::span<const std::string_view> sharding_strategies() {
  return kStrategies;
}
std::span<const std::string_view> wrap_policies() {
  return kWrapPolicies;
}
std::span<const std::string_view> backward_prefetches() {
  return kBackwardPrefetches;
}
std::span<const std::string_view> state_dict_types() {
  return kStateDictTypes;
}

std::optional<std::string_view> parse_choice(std::span<const std::string_view> choices, std::string_view text) {
  for (std::string_view c : choices) {
    if (iequals(c, text)) return c;
  }
  return std::nullopt;
}

std::optional<std::string_view> parse_strategy(std::string_view text) {
  if (text.size() == 1 && text[0] >= '1' && text[0] <= '5') return kStrategies[static_cast<std::size_t>(text[0] - '1')];
  // torch's member for the ZeRO-2 hybrid strategy has a leading underscore; accelerate upper-cases the name.
  if (iequals(text, "_HYBRID_SHARD_ZERO2")) return kStrategies[4];
  return parse_choice(kStrategies, text);
}

bool keeps_params_between_passes(std::string_view strategy) {
  return strategy == "SHARD_GRAD_OP" || strategy == "HYBRID_SHARD_ZERO2";
}

std::string_view closest(std::string_view word, std::span<const std::string_view> candidates) {
  std::string_view best;
  std::size_t best_d = std::string_view::npos;
  for (std::string_view c : candidates) {
    const std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  // Close enough to be a typo: at most a third of the word, and at most 4 edits.
  if (best_d == std::string_view::npos || best_d > std::max<std::size_t>(2, word.size() / 3) || best_d > 4) return {};
  return best;
}

std::span<const PluginField> plugin_fields() {
  return kPluginFields;
}
std::span<const EnvVar> env_vars() {
  return kEnvVars;
}

const parse::Entry* launcher_entry(const parse::Node& fsdp, std::string_view prefixed) {
  // Only two spellings become `prefixed`: itself and the key without its prefix. One pass: each spelling's first
  // position (its place in the dict) and last entry (its value); the spelling placed later wins.
  if (!prefixed.starts_with("fsdp_")) return nullptr;
  const std::string_view spellings[2] = {prefixed, prefixed.substr(5)};
  std::size_t first[2] = {std::string_view::npos, std::string_view::npos};
  const parse::Entry* last[2] = {nullptr, nullptr};
  for (std::size_t i = 0; i < fsdp.entries.size(); ++i) {
    const parse::Entry& e = fsdp.entries[i];
    for (int k = 0; k < 2; ++k) {
      if (e.key.text != spellings[k]) continue;
      if (last[k] == nullptr) first[k] = i;
      last[k] = &e;
    }
  }
  if (last[0] == nullptr || last[1] == nullptr) return last[0] != nullptr ? last[0] : last[1];
  return first[0] > first[1] ? last[0] : last[1];
}

std::string_view state_dict_type_default(int fsdp_version) {
  return fsdp_version == 2 ? "SHARDED_STATE_DICT" : "FULL_STATE_DICT";
}

std::string fsdp_config_key(std::string_view written) {
  return written.starts_with("fsdp_") ? std::string(written) : "fsdp_" + std::string(written);
}

const FsdpKey* find_fsdp_config_key(std::string_view written) {
  return find_fsdp_key(fsdp_config_key(written));
}

Value normalise_value(std::string_view prefixed_key, const Value& written) {
  const FsdpKey* info = find_fsdp_key(prefixed_key);
  if (info == nullptr) return written;
  // YAML bools and ints reach accelerate as Python values, which the launcher stringifies (str(True) = "True").
  std::string text = written.text;
  if (written.kind == ValueKind::Bool) text = written.boolean ? "true" : "false";
  const bool scalar = written.kind == ValueKind::String || written.kind == ValueKind::Bool ||
                      written.kind == ValueKind::Int || written.kind == ValueKind::Enum;
  if (!scalar) return written;
  switch (info->type) {
    case FsdpValueType::Truth:
      if (auto t = parse_truth(text)) return Value::of_bool(*t, written.region);
      return written;
    case FsdpValueType::Strategy:
      if (auto s = parse_strategy(text)) return Value::of_string(std::string(*s), written.region);
      return written;
    case FsdpValueType::ReshardAfterForward:
      // Kept as a truth value when it is one (FSDP2), else as a strategy name (FSDP1 spelling).
      if (auto t = parse_truth(text)) return Value::of_bool(*t, written.region);
      if (auto s = parse_strategy(text)) return Value::of_string(std::string(*s), written.region);
      return written;
    case FsdpValueType::Version:
      if (text == "1" || text == "2") return Value::of_int(text[0] - '0', written.region);
      return written;
    case FsdpValueType::WrapPolicy:
      if (auto s = parse_choice(wrap_policies(), text)) return Value::of_string(std::string(*s), written.region);
      return written;
    case FsdpValueType::BackwardPrefetch:
      if (auto s = parse_choice(backward_prefetches(), text)) return Value::of_string(std::string(*s), written.region);
      if (text.size() == 1 && text[0] >= '1' && text[0] <= '3')
        return Value::of_string(std::string(backward_prefetches()[text[0] - '1']), written.region);
      return written;
    case FsdpValueType::StateDictType:
      if (auto s = parse_choice(state_dict_types(), text)) return Value::of_string(std::string(*s), written.region);
      if (text.size() == 1 && text[0] >= '1' && text[0] <= '3')
        return Value::of_string(std::string(state_dict_types()[text[0] - '1']), written.region);
      return written;
    case FsdpValueType::Int:
      // The launcher passes strings; int("100000000") is what the plugin does with them.
      if (written.kind == ValueKind::String && !text.empty() &&
          text.find_first_not_of("0123456789") == std::string::npos) {
        if (const auto n = parse::parse_int(text)) return Value::of_int(*n, written.region);
      }
      return written;
    case FsdpValueType::String:
      return written;
  }
  return written;
}

bool looks_like_config(const parse::Node& m) {
  auto has = [&](std::string_view key) { return m.find(key) != nullptr; };
  if (has("distributed_type") || has("compute_environment")) return true;
  static constexpr std::array<std::string_view, 7> kKeys = {
      "num_processes", "machine_rank", "num_machines", "main_training_function", "use_cpu", "gpu_ids", "rdzv_backend"};
  const bool section = has("fsdp_config") || has("deepspeed_config");
  return section && std::any_of(kKeys.begin(), kKeys.end(), has);
}

}  // namespace lint::model::accelerate
