// Helpers shared by the launch-command rules (LCH*): the bound command, its script, and the shell text.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "rules/support.hpp"

namespace lint::rules::launch {

/// The training script bound to a launch (the Python file the command runs), or nullptr.
inline const model::Document* python_script(const model::Launch& l) {
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::PythonScript && d->python) return d;
  }
  return nullptr;
}

/// `accelerate launch`, `torchrun`, `deepspeed`: launchers that read their own flags up to the script and pass
/// everything after it to the script.
inline bool is_process_launcher(parse::LaunchTool t) {
  return t == parse::LaunchTool::AccelerateLaunch || t == parse::LaunchTool::Torchrun ||
         t == parse::LaunchTool::DeepSpeed;
}

/// A flag word's name: without leading dashes, before `=`, `-` replaced by `_`.
inline std::string flag_name(std::string_view word) {
  std::string name(word.substr(0, word.find('=')));
  while (!name.empty() && name.front() == '-') name.erase(0, 1);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

// Flags that only the launcher defines (names with `_`). Flags that a script's argument classes define without the
// script naming them (`--gradient_accumulation_steps` and `--debug` of TrainingArguments, the Trainer's legacy
// `--fsdp_min_num_params` / `--fsdp_transformer_layer_cls_to_wrap`) are left out; a flag the script's own source
// names is silent. `--mixed_precision` is no TrainingArguments field: a script that does not name it rejects it
// (oracle case lch1-acc-mp-after; a script that defines it, lch1-ok-mp-script-defines, runs).
inline const std::set<std::string, std::less<>>& accelerate_flags() {
  static const std::set<std::string, std::less<>> s = {"config_file",
                                                       "num_processes",
                                                       "num_machines",
                                                       "machine_rank",
                                                       "main_process_ip",
                                                       "main_process_port",
                                                       "multi_gpu",
                                                       "use_fsdp",
                                                       "use_deepspeed",
                                                       "use_megatron_lm",
                                                       "gpu_ids",
                                                       "same_network",
                                                       "rdzv_backend",
                                                       "num_cpu_threads_per_process",
                                                       "dynamo_backend",
                                                       "fsdp_sharding_strategy",
                                                       "fsdp_offload_params",
                                                       "fsdp_auto_wrap_policy",
                                                       "fsdp_backward_prefetch",
                                                       "fsdp_state_dict_type",
                                                       "fsdp_version",
                                                       "fsdp_reshard_after_forward",
                                                       "fsdp_cpu_ram_efficient_loading",
                                                       "fsdp_sync_module_states",
                                                       "fsdp_activation_checkpointing",
                                                       "fsdp_use_orig_params",
                                                       "fsdp_forward_prefetch",
                                                       "zero_stage",
                                                       "offload_optimizer_device",
                                                       "offload_param_device",
                                                       "deepspeed_config_file",
                                                       "deepspeed_hostfile",
                                                       "deepspeed_multinode_launcher",
                                                       "zero3_init_flag",
                                                       "zero3_save_16bit_model",
                                                       "main_training_function",
                                                       "mixed_precision"};
  return s;
}
inline const std::set<std::string, std::less<>>& torchrun_flags() {
  static const std::set<std::string, std::less<>> s = {
      "nproc_per_node", "nnodes",    "node_rank",  "master_addr",  "master_port",      "rdzv_endpoint", "rdzv_backend",
      "rdzv_id",        "rdzv_conf", "standalone", "max_restarts", "monitor_interval", "start_method"};
  return s;
}
inline const std::set<std::string, std::less<>>& deepspeed_flags() {
  static const std::set<std::string, std::less<>> s = {"num_gpus",    "num_nodes",     "hostfile",          "include",
                                                       "exclude",     "master_addr",   "master_port",       "launcher",
                                                       "force_multi", "no_local_rank", "bind_cores_to_rank"};
  return s;
}

/// The flags of the process launcher `t` (accelerate launch, torchrun, deepspeed) that no training script
/// defines by itself.
inline const std::set<std::string, std::less<>>& launcher_flags(parse::LaunchTool t) {
  return t == parse::LaunchTool::AccelerateLaunch ? accelerate_flags()
         : t == parse::LaunchTool::Torchrun       ? torchrun_flags()
                                                  : deepspeed_flags();
}

/// The basename of a path word.
inline std::string_view basename(std::string_view s) {
  const auto slash = s.rfind('/');
  return slash == std::string_view::npos ? s : s.substr(slash + 1);
}

inline bool is_python_interpreter(std::string_view word) {
  const std::string_view b = basename(word);
  return b == "python" || b == "python3" || (b.starts_with("python3.") && b.size() <= 10);
}

}  // namespace lint::rules::launch
