// ACC011: a key in accelerate's `deepspeed_config:` section that accelerate never reads.
#include <array>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

// The DeepSpeed arguments of `accelerate launch` (accelerate src/accelerate/commands/launch.py:409-510): the
// config section is copied onto them and nothing else is read (launch.py:1259-1275, utils/launch.py:564-585).
constexpr auto kKnown = std::to_array<std::string_view>(
    {"deepspeed_config_file", "zero_stage", "offload_optimizer_device", "offload_param_device",
     "offload_optimizer_nvme_path", "offload_param_nvme_path", "gradient_accumulation_steps", "gradient_clipping",
     "zero3_init_flag", "zero3_save_16bit_model", "deepspeed_hostfile", "deepspeed_exclusion_filter",
     "deepspeed_inclusion_filter", "deepspeed_multinode_launcher", "deepspeed_moe_layer_cls_names"});

// Keys of the DeepSpeed JSON itself, often pasted into the section.
constexpr auto kJsonKeys = std::to_array<std::string_view>(
    {"train_micro_batch_size_per_gpu", "train_batch_size", "zero_optimization", "fp16", "bf16", "optimizer",
     "scheduler", "steps_per_print", "wall_clock_breakdown", "zero_allow_untested_optimizer"});

class UnknownDeepspeedConfigKey final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig || doc.root_map() == nullptr) return;
    const parse::Node* section = doc.root_map()->find("deepspeed_config");
    if (section == nullptr || !section->is_map()) return;
    for (const parse::Entry& e : section->entries) {
      const std::string& k = e.key.text;
      if (std::find(kKnown.begin(), kKnown.end(), k) != kKnown.end()) continue;
      std::string msg = "`deepspeed_config." + k +
                        "` is not a setting accelerate reads: `accelerate launch` copies "
                        "the section onto its DeepSpeed arguments and exports only those, so this key has no effect.";
      if (std::find(kJsonKeys.begin(), kJsonKeys.end(), k) != kJsonKeys.end()) {
        msg +=
            " It is a DeepSpeed JSON key: put it in a DeepSpeed config file and point `deepspeed_config_file` "
            "at it.";
      } else if (const std::string_view near = model::accelerate::closest(k, kKnown); !near.empty()) {
        msg += " Did you mean `" + std::string(near) + "`?";
      }
      ctx.report(doc.path(), e.key.region, msg);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unknown_deepspeed_config_key() {
  return std::make_unique<UnknownDeepspeedConfigKey>();
}

}  // namespace lint::rules
