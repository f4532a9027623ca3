// TT004: a section or key torchtitan 0.2 does not define: its config manager rejects the whole file.
#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "rules/torchtitan/torchtitan_support.hpp"

namespace lint::rules {
namespace {

// The JobConfig dataclasses of torchtitan v0.2.2 (torchtitan/config/job_config.py, `JobConfig` at :999-1024):
// section -> its fields; a trailing `/` marks a nested section.
constexpr std::pair<std::string_view, std::string_view> kSchema[] = {
    {"",
     "job/ profiling/ metrics/ model/ optimizer/ lr_scheduler/ training/ parallelism/ checkpoint/ "
     "activation_checkpoint/ compile/ quantize/ comm/ memory_estimation/ fault_tolerance/ experimental/ validation/ "
     "debug/"},
    {"job", "config_file dump_folder description print_config save_config_file custom_config_module"},
    {"profiling",
     "enable_profiling save_traces_folder profile_freq profiler_active profiler_warmup enable_memory_snapshot "
     "save_memory_snapshot_folder"},
    {"metrics", "log_freq enable_tensorboard disable_color_printing save_tb_folder save_for_all_ranks enable_wandb"},
    {"model", "name flavor hf_assets_path tokenizer_path converters print_after_conversion"},
    {"optimizer", "name lr beta1 beta2 eps weight_decay implementation early_step_in_backward"},
    {"lr_scheduler", "warmup_steps total_steps decay_ratio decay_type min_lr_factor"},
    {"training",
     "dataset dataset_path local_batch_size global_batch_size seq_len max_norm steps enable_cpu_offload dtype "
     "mixed_precision_param mixed_precision_reduce gc_freq gc_debug dataloader/"},
    {"training.dataloader", "num_workers persistent_workers pin_memory prefetch_factor"},
    {"parallelism",
     "data_parallel_replicate_degree data_parallel_shard_degree fsdp_reshard_after_forward tensor_parallel_degree "
     "disable_loss_parallel enable_async_tensor_parallel pipeline_parallel_degree module_fqns_per_model_part "
     "pipeline_parallel_first_stage_less_layers pipeline_parallel_last_stage_less_layers "
     "pipeline_parallel_layers_per_stage pipeline_parallel_schedule pipeline_parallel_schedule_csv "
     "pipeline_parallel_microbatch_size pipeline_parallel_expert_parallel_overlap context_parallel_degree "
     "context_parallel_load_balancer context_parallel_rotate_method expert_parallel_degree "
     "expert_tensor_parallel_degree expert_parallel_comm_backend"},
    {"checkpoint",
     "enable enable_ft_dataloader_checkpoints folder interval initial_load_path initial_load_model_only "
     "initial_load_in_hf initial_load_in_hf_quantized last_save_model_only last_save_in_hf export_dtype async_mode "
     "keep_latest_k load_step exclude_from_loading enable_first_step_checkpoint create_seed_checkpoint load_only"},
    {"activation_checkpoint",
     "mode selective_ac_option per_op_sac_force_recompute_mm_shapes_by_fqns early_stop memory_budget "
     "visualize_memory_budget_pareto preserve_rng_state determinism_check debug"},
    {"compile", "enable components backend"},
    {"quantize", "linear/ grouped_mm/"},
    {"quantize.linear", "float8/ mx/"},
    {"quantize.linear.float8",
     "enable_fsdp_float8_all_gather precompute_float8_dynamic_scale_for_fsdp recipe_name filter_fqns emulate"},
    {"quantize.linear.mx", "mxfp8_dim1_cast_kernel_choice recipe_name filter_fqns"},
    {"quantize.grouped_mm", "float8/ mx/"},
    {"quantize.grouped_mm.float8", "fqns"},
    {"quantize.grouped_mm.mx", "recipe_name fqns"},
    {"comm",
     "init_timeout_seconds train_timeout_seconds trace_buf_size save_traces_folder save_traces_file_prefix mode"},
    {"memory_estimation", "enable disable_fake_mode"},
    {"fault_tolerance",
     "enable process_group process_group_timeout_ms replica_id group_size min_replica_size semi_sync_method"},
    {"experimental", "custom_import custom_args_module"},
    {"validation", "enable dataset dataset_path local_batch_size seq_len freq steps dataloader/"},
    {"validation.dataloader", "num_workers persistent_workers pin_memory prefetch_factor"},
    {"debug", "seed deterministic deterministic_warn_only moe_force_load_balance"},
};

// Keys of torchtitan 0.1 renamed or moved in 0.2 (v0.1.0 torchtitan/config_manager.py).
constexpr std::pair<std::string_view, std::string_view> kRenamed[] = {
    {"float8", "[quantize.linear.float8]"},
    {"mx", "[quantize.linear.mx]"},
    {"checkpoint.enable_checkpoint", "checkpoint.enable"},
    {"training.compile", "[compile] enable"},
    {"training.seed", "debug.seed"},
    {"training.deterministic", "debug.deterministic"},
    {"lr_scheduler.lr_min", "lr_scheduler.min_lr_factor"},
    {"checkpoint.model_weights_only", "checkpoint.last_save_model_only"},
    {"memory_estimation.enabled", "memory_estimation.enable"},
    {"training.batch_size", "training.local_batch_size"},
    {"training.data_parallel_replicate_degree", "parallelism.data_parallel_replicate_degree"},
    {"training.data_parallel_shard_degree", "parallelism.data_parallel_shard_degree"},
    {"training.tensor_parallel_degree", "parallelism.tensor_parallel_degree"},
    {"experimental.pipeline_parallel_degree", "parallelism.pipeline_parallel_degree"},
    {"experimental.context_parallel_degree", "parallelism.context_parallel_degree"},
};

const std::map<std::string, std::vector<std::string>, std::less<>>& schema() {
  static const auto table = [] {
    std::map<std::string, std::vector<std::string>, std::less<>> t;
    for (const auto& [section, fields] : kSchema) {
      std::istringstream in{std::string(fields)};
      std::vector<std::string> keys;
      for (std::string k; in >> k;) keys.push_back(k);
      t.emplace(std::string(section), std::move(keys));
    }
    return t;
  }();
  return table;
}

std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

class UnknownTorchtitanKey final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = torchtitan::config_of(l);
    if (doc == nullptr || doc->format != parse::Format::Toml) return;
    const parse::Node* root = doc->root_map();
    // A custom config module merges extra sections and fields (manager.py:86-158), from the TOML or the command.
    const parse::Node* job = root->find("job");
    if (job != nullptr && job->is_map() && job->find("custom_config_module") != nullptr) return;
    const parse::Node* exp = root->find("experimental");
    if (exp != nullptr && exp->is_map() && exp->find("custom_args_module") != nullptr) return;
    if (torchtitan::command_mentions(l, "custom_config_module") ||
        torchtitan::command_mentions(l, "custom-config-module") ||
        torchtitan::command_mentions(l, "custom_args_module"))
      return;
    // Linted alone, the TOML may still be launched with `--job.custom_config_module` on the command line: only
    // torchtitan 0.1 names and near-misses of a known field are reported then. A launch that binds the TOML
    // without a custom module decides it.
    check(*doc, *root, "", !l.per_file, ctx);
  }

 private:
  static void check(const model::Document& doc, const parse::Node& map, const std::string& section, bool strict,
                    rule::RuleContext& ctx) {
    const auto it = schema().find(section);
    if (it == schema().end()) return;
    for (const parse::Entry& e : map.entries) {
      const std::string& key = e.key.text;
      const auto field = std::find_if(it->second.begin(), it->second.end(),
                                      [&](const std::string& f) { return f == key || f == key + "/"; });
      const std::string dotted = section.empty() ? key : section + "." + key;
      if (field != it->second.end()) {
        if (field->ends_with("/") && e.value.is_map()) check(doc, e.value, dotted, strict, ctx);
        continue;
      }
      std::string hint;
      for (const auto& [old, now] : kRenamed) {
        if (old == dotted) hint = " torchtitan 0.1 spelled it this way; in 0.2 it is `" + std::string(now) + "`.";
      }
      if (hint.empty()) {
        std::string best;
        std::size_t best_d = 3;
        for (const std::string& f : it->second) {
          const std::string name = f.ends_with("/") ? f.substr(0, f.size() - 1) : f;
          const std::size_t d = distance(key, name);
          if (d < best_d) {
            best_d = d;
            best = name;
          }
        }
        if (!best.empty()) hint = " Did you mean `" + best + "`?";
      }
      if (hint.empty() && !strict) continue;
      const std::string what = section.empty() ? "section `[" + key + "]`" : "key `" + key + "` in `[" + section + "]`";
      ctx.report(doc.path(), e.key.region,
                 "torchtitan 0.2 has no " + what +
                     ": its config manager rejects unknown names and stops before training with ValueError "
                     "\"Invalid field names in ... data\"." +
                     hint);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unknown_torchtitan_key() {
  return std::make_unique<UnknownTorchtitanKey>();
}

}  // namespace lint::rules
