// LCH001: a launcher flag written after the training script goes to the script, not to the launcher.
#include <array>
#include <set>
#include <string>

#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

// Flags that only the launcher defines (names with `_`). Flags that a script's argument classes define without the
// script naming them (`--gradient_accumulation_steps` and `--debug` of TrainingArguments, the Trainer's legacy
// `--fsdp_min_num_params` / `--fsdp_transformer_layer_cls_to_wrap`) are left out; a flag the script's own source
// names is silent. `--mixed_precision` is no TrainingArguments field: a script that does not name it rejects it
// (oracle case lch1-acc-mp-after; a script that defines it, lch1-ok-mp-script-defines, runs).
const std::set<std::string, std::less<>>& accelerate_flags() {
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
const std::set<std::string, std::less<>>& torchrun_flags() {
  static const std::set<std::string, std::less<>> s = {
      "nproc_per_node", "nnodes",    "node_rank",  "master_addr",  "master_port",      "rdzv_endpoint", "rdzv_backend",
      "rdzv_id",        "rdzv_conf", "standalone", "max_restarts", "monitor_interval", "start_method"};
  return s;
}
const std::set<std::string, std::less<>>& deepspeed_flags() {
  static const std::set<std::string, std::less<>> s = {"num_gpus",    "num_nodes",     "hostfile",          "include",
                                                       "exclude",     "master_addr",   "master_port",       "launcher",
                                                       "force_multi", "no_local_rank", "bind_cores_to_rank"};
  return s;
}

/// True when the script's source names the flag (an argparse option, a dataclass field, a string): it may be
/// the script's own.
bool script_names(std::string_view source, const std::string& name) {
  if (source.find(name) != std::string_view::npos) return true;
  std::string dashed = name;
  for (char& c : dashed) {
    if (c == '_') c = '-';
  }
  return source.find(dashed) != std::string_view::npos;
}

/// A word that reads as a truth value (`true`, `'True'`, `1`, `yes`): what a user writes after a flag that takes none.
bool is_truth_word(std::string_view w) {
  for (std::string_view t : {"true", "True", "TRUE", "false", "False", "FALSE", "yes", "no", "1", "0"}) {
    if (w == t) return true;
  }
  return false;
}

class LauncherFlagAfterScript final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command_document == nullptr) return;
    const parse::LaunchCommand& cmd = *l.command;
    if (!launch::is_process_launcher(cmd.tool) || !cmd.script) return;
    const auto& flags = cmd.tool == parse::LaunchTool::AccelerateLaunch ? accelerate_flags()
                        : cmd.tool == parse::LaunchTool::Torchrun       ? torchrun_flags()
                                                                        : deepspeed_flags();
    const std::string launcher(parse::to_string(cmd.tool));
    // `--same_network true train.py`: the flag takes no value, so the truth value is read as the script and every
    // launcher flag after it goes to that "script" (accelerate#2240: the rendezvous endpoint became `None:None`).
    if (cmd.script->known && is_truth_word(cmd.script->text) && !cmd.flags.empty() && !cmd.flags.back().value &&
        !cmd.launcher_args.empty() && cmd.launcher_args.back().text.starts_with("-")) {
      std::string lost;
      for (const parse::Word& w : cmd.script_args) {
        if (!w.known || !w.text.starts_with("--") || flags.count(launch::flag_name(w.text)) == 0) continue;
        lost += (lost.empty() ? "`" : ", `") + w.text.substr(0, w.text.find('=')) + "`";
      }
      const std::string flag = cmd.launcher_args.back().text;
      ctx.report(l.command_document->path(), cmd.script->region,
                 "`" + flag + "` takes no value: `" + launcher + "` reads `" + cmd.script->text +
                     "` as the training script and passes everything after it to that script" +
                     (lost.empty() ? std::string(".") : ", so it never sees " + lost + ".") + " Write `" + flag +
                     "` alone.",
                 {rule::RelatedLocation{l.command_document->path(), cmd.launcher_args.back().region,
                                        "this flag takes no value"}});
      return;
    }
    // The script must be known: a flag of the same name may be its own.
    const model::Document* py = launch::python_script(l);
    if (py == nullptr) return;
    for (const parse::Word& w : cmd.script_args) {
      if (!w.known || !w.text.starts_with("--")) continue;
      const std::string name = launch::flag_name(w.text);
      if (flags.count(name) == 0 || script_names(py->source->text(), name)) continue;
      ctx.report(l.command_document->path(), w.region,
                 "`" + w.text.substr(0, w.text.find('=')) + "` comes after the script `" + cmd.script->text + "`: `" +
                     launcher + "` stops reading its own flags at the script and passes the rest to it, so the " +
                     "launcher never sees this flag (its value comes from the default or the config file) and the " +
                     "script, which does not define it, fails with `unrecognized arguments` (HfArgumentParser: "
                     "`Some specified arguments are not used`) or ignores it. Move it before `" +
                     cmd.script->text + "`.",
                 {rule::RelatedLocation{l.command_document->path(), cmd.script->region, "the script starts here"}});
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_launcher_flag_after_script() {
  return std::make_unique<LauncherFlagAfterScript>();
}

}  // namespace lint::rules
