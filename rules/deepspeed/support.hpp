// Helpers shared by the DeepSpeed rules (not a rule itself): the DeepSpeed JSON of a launch and the keys DeepSpeed
// 0.19.5 validates.
#pragma once

#include <algorithm>
#include <array>
#include <string_view>

#include "lint/model/deepspeed_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {

/// The DeepSpeed JSON of a launch, if any.
inline const model::Document* deepspeed_json(const model::Launch& l) {
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::DeepSpeedConfig && d->root_map() != nullptr) return d;
  }
  return nullptr;
}

/// `"enabled": true` written as a JSON bool in section `name`.
inline const parse::Node* enabled_true(const parse::Node& root, std::string_view name) {
  const parse::Node* s = root.find(name);
  if (s == nullptr || !s->is_map()) return nullptr;
  const parse::Node* e = s->find("enabled");
  return e != nullptr && e->kind == parse::NodeKind::Bool && e->boolean ? e : nullptr;
}

/// Field names (and pydantic aliases) of DeepSpeed 0.19.5's validated sections, which forbid other keys
/// (`deepspeed/runtime/config_utils.py:105-113`, `extra="forbid"`).
inline constexpr auto kZeroKeys = std::to_array<std::string_view>({"stage",
                                                                   "contiguous_gradients",
                                                                   "reduce_scatter",
                                                                   "reduce_bucket_size",
                                                                   "use_multi_rank_bucket_allreduce",
                                                                   "allgather_partitions",
                                                                   "allgather_bucket_size",
                                                                   "overlap_comm",
                                                                   "load_from_fp32_weights",
                                                                   "elastic_checkpoint",
                                                                   "offload_param",
                                                                   "offload_optimizer",
                                                                   "zenflow",
                                                                   "sub_group_size",
                                                                   "cpu_offload_param",
                                                                   "cpu_offload_use_pin_memory",
                                                                   "cpu_offload",
                                                                   "prefetch_bucket_size",
                                                                   "stage3_prefetch_bucket_size",
                                                                   "param_persistence_threshold",
                                                                   "stage3_param_persistence_threshold",
                                                                   "model_persistence_threshold",
                                                                   "stage3_model_persistence_threshold",
                                                                   "max_live_parameters",
                                                                   "stage3_max_live_parameters",
                                                                   "max_reuse_distance",
                                                                   "stage3_max_reuse_distance",
                                                                   "gather_16bit_weights_on_model_save",
                                                                   "stage3_gather_16bit_weights_on_model_save",
                                                                   "module_granularity_threshold",
                                                                   "stage3_module_granularity_threshold",
                                                                   "use_all_reduce_for_fetch_params",
                                                                   "stage3_use_all_reduce_for_fetch_params",
                                                                   "allgather_sequential",
                                                                   "stage3_allgather_sequential",
                                                                   "stage3_gather_fp16_weights_on_model_save",
                                                                   "ignore_unused_parameters",
                                                                   "legacy_stage1",
                                                                   "round_robin_gradients",
                                                                   "zero_hpz_partition_size",
                                                                   "zero_quantized_weights",
                                                                   "zero_quantized_nontrainable_weights",
                                                                   "zero_quantized_gradients",
                                                                   "zeropp_loco_param",
                                                                   "mics_shard_size",
                                                                   "mics_hierarchical_params_gather",
                                                                   "memory_efficient_linear",
                                                                   "pipeline_loading_checkpoint",
                                                                   "override_module_apply",
                                                                   "log_trace_cache_warnings",
                                                                   "enable_sanity_checks",
                                                                   "save_muon_momentum_buffer_in_memory",
                                                                   "leaf_module"});
inline constexpr auto kOffloadParamKeys =
    std::to_array<std::string_view>({"device", "nvme_path", "buffer_count", "buffer_size", "max_in_cpu", "pin_memory"});
inline constexpr auto kOffloadOptimizerKeys =
    std::to_array<std::string_view>({"device", "nvme_path", "buffer_count", "pin_memory", "pipeline_read",
                                     "pipeline_write", "fast_init", "ratio", "super_offload", "cpuadam_cores_perc"});
inline constexpr auto kFp16Keys = std::to_array<std::string_view>(
    {"enabled", "auto_cast", "loss_scale", "initial_scale_power", "loss_scale_window", "hysteresis",
     "consecutive_hysteresis", "min_loss_scale", "fp16_master_weights_and_grads"});
inline constexpr auto kBf16Keys =
    std::to_array<std::string_view>({"enabled", "immediate_grad_update", "check_grad_overflow",
                                     "bf16_master_weights_and_grads", "bf16_optimizer_states"});

/// The monitor sections (DeepSpeed 0.19.5 deepspeed/monitor/config.py:17-137): pydantic models that reject unknown
/// keys.
inline constexpr auto kTensorBoardKeys = std::to_array<std::string_view>({"enabled", "output_path", "job_name"});
inline constexpr auto kCsvMonitorKeys = kTensorBoardKeys;
inline constexpr auto kWandbKeys = std::to_array<std::string_view>({"enabled", "group", "team", "project"});
inline constexpr auto kCometKeys =
    std::to_array<std::string_view>({"enabled", "samples_log_interval", "project", "workspace", "api_key",
                                     "experiment_name", "experiment_key", "online", "mode"});

/// Top-level keys DeepSpeed 0.19.5 or the HF integration read (constants.py and the subsystems' configs).
inline constexpr auto kTopLevelKeys = std::to_array<std::string_view>({"train_batch_size",
                                                                       "train_micro_batch_size_per_gpu",
                                                                       "gradient_accumulation_steps",
                                                                       "gradient_clipping",
                                                                       "steps_per_print",
                                                                       "zero_optimization",
                                                                       "zero_allow_untested_optimizer",
                                                                       "zero_force_ds_cpu_optimizer",
                                                                       "fp16",
                                                                       "bf16",
                                                                       "bfloat16",
                                                                       "amp",
                                                                       "optimizer",
                                                                       "scheduler",
                                                                       "activation_checkpointing",
                                                                       "wall_clock_breakdown",
                                                                       "memory_breakdown",
                                                                       "dump_state",
                                                                       "prescale_gradients",
                                                                       "gradient_predivide_factor",
                                                                       "sparse_gradients",
                                                                       "communication_data_type",
                                                                       "seq_parallel_communication_data_type",
                                                                       "sequence_parallel_size",
                                                                       "flops_profiler",
                                                                       "tensorboard",
                                                                       "wandb",
                                                                       "csv_monitor",
                                                                       "comet",
                                                                       "comms_logger",
                                                                       "elasticity",
                                                                       "autotuning",
                                                                       "aio",
                                                                       "nebula",
                                                                       "checkpoint",
                                                                       "data_types",
                                                                       "compile",
                                                                       "timers",
                                                                       "tensor_parallel",
                                                                       "pipeline",
                                                                       "sparse_attention",
                                                                       "curriculum_learning",
                                                                       "data_efficiency",
                                                                       "compression_training",
                                                                       "eigenvalue",
                                                                       "progressive_layer_drop",
                                                                       "hybrid_engine",
                                                                       "quantize_training",
                                                                       "weight_quantization",
                                                                       "dataloader_drop_last",
                                                                       "disable_allgather",
                                                                       "graph_harvesting",
                                                                       "log_level",
                                                                       "managed_gradient_accumulation",
                                                                       "use_data_before_expert_parallelism",
                                                                       "torch_autocast",
                                                                       "zenflow",
                                                                       "use_node_local_storage",
                                                                       "load_universal",
                                                                       "mics_shard_size",
                                                                       "expert_parallel",
                                                                       "gradient_accumulation_dtype",
                                                                       "deepcompile",
                                                                       "fp8"});

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& a, std::string_view k) {
  return !k.empty() && std::find(a.begin(), a.end(), k) != a.end();
}

/// "DeepSpeed 0.19.5 `path:lines`" for messages.
inline std::string ds_cite(std::string_view where) {
  return "DeepSpeed 0.19.5 `" + std::string(where) + "`";
}

}  // namespace lint::rules
