// FSDP006: the effective wrap policy wraps nothing (NO_WRAP, accelerate's default, or SIZE_BASED_WRAP with
// min_num_params 0), so the whole model is one FSDP unit, gathered in full for every forward and backward.
#include <charconv>
#include <optional>
#include <string>
#include <utility>

#include "lint/model/torch/torch.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::ValueKind;


/// The script wraps submodules itself: several FSDP calls (one per layer), an `auto_wrap_policy=` object given to
/// torch, or PEFT's `fsdp_auto_wrap_policy`.
bool script_wraps_itself(const model::Launch& l) {
  for (const model::Document* d : l.documents) {
    if (d->kind != model::DocKind::PythonScript || !d->python) continue;
    const model::PythonFacts& py = *d->python;
    if (model::torch::torch_fsdp_calls(py, "fully_shard").size() > 1) return true;
    const auto fsdp1 = model::torch::torch_fsdp_calls(py, "FullyShardedDataParallel");
    if (fsdp1.size() > 1) return true;
    for (const model::PyCall* c : fsdp1) {
      if (c->keyword("auto_wrap_policy") != nullptr) return true;
    }
    if (!py.calls_named("fsdp_auto_wrap_policy").empty()) return true;
  }
  return false;
}

/// Where to report a policy nobody wrote: the `fsdp_config` key of the accelerate config, else its
/// `distributed_type` value.
std::optional<std::pair<std::string, source::Region>> default_site(const model::Launch& l) {
  const model::Document* cfg = accelerate_config(l);
  const parse::Node* root = cfg != nullptr ? cfg->root_map() : nullptr;
  if (root == nullptr) return std::nullopt;
  if (const parse::Entry* e = root->find_entry("fsdp_config")) return std::make_pair(cfg->path(), e->key.region);
  if (const parse::Entry* e = root->find_entry("distributed_type")) return std::make_pair(cfg->path(), e->value.region);
  return std::nullopt;
}

class NoAutoWrapPolicy final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    // One process: FSDP1 runs NO_SHARD and nothing is sharded whatever the wrapping (FSDP012).
    if (const auto ws = l.world_size(); ws && *ws == 1) return;
    const model::Value& policy = l.value(model::keys::kAutoWrapPolicy);
    if (policy.kind != ValueKind::String) return;
    const bool no_wrap = policy.text == "NO_WRAP";
    const bool size_zero = policy.text == "SIZE_BASED_WRAP" && min_num_params_is_zero(l.value(model::keys::kMinNumParams));
    if (!no_wrap && !size_zero) return;
    if (script_wraps_itself(l)) return;

    std::string cause;
    std::vector<rule::RelatedLocation> related;
    const model::Setting* site = written_site(l, model::keys::kAutoWrapPolicy);
    std::string path;
    source::Region region;
    if (site != nullptr) {
      path = site->path;
      region = site->region;
      cause = no_wrap ? "The auto wrap policy NO_WRAP wraps no submodule"
                      : "SIZE_BASED_WRAP with `min_num_params` 0 wraps no submodule (accelerate disables size-based "
                        "wrapping for 0)";
      if (size_zero) related = related_to(written_site(l, model::keys::kMinNumParams), "min_num_params is 0 here");
    } else {
      const auto fallback = default_site(l);
      if (!fallback) return;
      path = fallback->first;
      region = fallback->second;
      cause = "No `fsdp_auto_wrap_policy` is set, so accelerate uses NO_WRAP, which wraps no submodule";
    }
    std::string message = cause +
                          ": the whole model is one FSDP unit, all-gathered in full for every forward and backward, "
                          "so at peak each rank holds the entire unsharded model and FSDP saves little memory. Use "
                          "TRANSFORMER_BASED_WRAP with the model's layer class (`fsdp_transformer_layer_cls_to_wrap`; "
                          "when it is omitted, accelerate takes the model's `_no_split_modules`).";
    ctx.report(path, region, std::move(message), std::move(related), std::nullopt,
               std::string(model::keys::kAutoWrapPolicy));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_no_auto_wrap_policy() {
  return std::make_unique<NoAutoWrapPolicy>();
}

}  // namespace lint::rules
