// DS002: "auto" values in a DeepSpeed JSON read by plain deepspeed.initialize, without the HF integration.
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

class AutoWithoutHfIntegration final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = deepspeed_json(l);
    if (doc == nullptr) return;
    if (model::deepspeed_state(l).reader != model::DeepSpeedReader::Raw) return;
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
