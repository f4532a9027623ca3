// DS002: "auto" values in a DeepSpeed JSON read by plain deepspeed.initialize, without the HF integration.
#include <algorithm>
#include <iterator>
#include <string>

#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

/// Every "auto" the HF Trainer or accelerate can fill, by dotted path: the Trainer's trainer_config_process /
/// trainer_config_finalize (transformers 5.17.0 integrations/deepspeed.py:133-260) and accelerate's prepare
/// (`config_kwargs`, accelerate src/accelerate/accelerator.py:2216-2346; `gradient_accumulation_steps` and the
/// stage, offload and precision values of its DeepSpeed plugin, src/accelerate/utils/dataclasses.py:1280-1292,
/// 1415-1470). Some are filled only in
/// some launches (the bucket sizes need the model's hidden size); none outside this set ever is.
constexpr std::string_view kFillable[] = {
    "train_micro_batch_size_per_gpu",
    "train_batch_size",
    "gradient_accumulation_steps",
    "gradient_clipping",
    "fp16.enabled",
    "bf16.enabled",
    "amp.enabled",
    "amp.opt_level",
    "optimizer.params.lr",
    "optimizer.params.betas",
    "optimizer.params.eps",
    "optimizer.params.weight_decay",
    "scheduler.params.warmup_min_lr",
    "scheduler.params.warmup_max_lr",
    "scheduler.params.warmup_num_steps",
    "scheduler.params.total_num_steps",
    "zero_optimization.reduce_bucket_size",
    "zero_optimization.stage3_prefetch_bucket_size",
    "zero_optimization.stage3_param_persistence_threshold",
    "zero_optimization.stage3_gather_16bit_weights_on_model_save",
    // accelerate's DeepSpeed plugin, from its own fields (environment or defaults), dataclasses.py:1280-1292
    "zero_optimization.stage",
    "zero_optimization.offload_optimizer.device",
    "zero_optimization.offload_param.device",
    "zero_optimization.offload_optimizer.nvme_path",
    "zero_optimization.offload_param.nvme_path",
};

/// Under the integration, accelerate's prepare walks the whole config and raises for every "auto" it has no value
/// for (fill_match, accelerate src/accelerate/utils/dataclasses.py:1357-1372).
void check_unfillable(const model::Document& doc, const parse::Node& map, const std::string& prefix,
                      rule::RuleContext& ctx) {
  for (const parse::Entry& e : map.entries) {
    const std::string path = prefix + e.key.text;
    if (e.value.is_map()) {
      check_unfillable(doc, e.value, path + ".", ctx);
      continue;
    }
    if (e.value.kind != parse::NodeKind::String || e.value.text != "auto") continue;
    if (std::find(std::begin(kFillable), std::end(kFillable), path) != std::end(kFillable)) continue;
    ctx.report(doc.path(), e.value.region,
               "`" + path +
                   "` is \"auto\", but neither the HF Trainer nor accelerate fills that key: accelerate's prepare "
                   "raises ValueError(\"`" + path +
                   "` not found in kwargs. Please specify ... without `auto`\") (accelerate "
                   "`src/accelerate/utils/dataclasses.py:1357-1372`). Write the value.",
               {}, rule::Severity::Error);
  }
}

class AutoWithoutHfIntegration final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = deepspeed_json(l);
    if (doc == nullptr) return;
    const model::DeepSpeedReader reader = model::deepspeed_state(l).reader;
    if (reader == model::DeepSpeedReader::Integration) {
      check_unfillable(*doc, *doc->root_map(), "", ctx);
      return;
    }
    if (reader != model::DeepSpeedReader::Raw) return;
    const parse::Node& root = *doc->root_map();
    for (const parse::Entry& e : root.entries) {
      if (e.value.kind == parse::NodeKind::String && e.value.text == "auto") {
        ctx.report(doc->path(), e.value.region,
                   "`" + e.key.text +
                       "` is \"auto\", which only the HF Trainer / accelerate fill in; plain DeepSpeed "
                       "reads top-level values as they are, and its batch checks fail on the string (" +
                       ds_cite("deepspeed/runtime/config.py:912-930") + "). Write the number.",
                   {}, rule::Severity::Error);
      }
    }
    visit_nodes(root, [&](const parse::Node& n, const parse::Entry* entry, const parse::Node* parent) {
      if (entry == nullptr || parent == &root || n.kind != parse::NodeKind::String || n.text != "auto") return;
      ctx.report(doc->path(), n.region,
                 "`" + entry->key.text +
                     "` is \"auto\", which only the HF Trainer / accelerate fill in; plain "
                     "DeepSpeed drops \"auto\" inside its sections and silently uses the default (" +
                     ds_cite("deepspeed/runtime/config_utils.py:55-56") +
                     "; `\"stage\": \"auto\"` is stage 0, `\"enabled\": \"auto\"` is off). Write the value.");
    });
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_auto_without_hf_integration() {
  return std::make_unique<AutoWithoutHfIntegration>();
}

}  // namespace lint::rules
