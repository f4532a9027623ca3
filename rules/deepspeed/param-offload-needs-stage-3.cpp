// DS007: parameter offload (or partial optimizer offload) with a ZeRO stage below 3.
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

class ParamOffloadNeedsStage3 final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::DeepSpeedConfig || doc.root_map() == nullptr) return;
    const parse::Node& root = *doc.root_map();
    const parse::Node* zo = root.find("zero_optimization");
    if (zo == nullptr || !zo->is_map()) return;
    const parse::Node* stage_node = nullptr;
    const auto stage = model::json_zero_stage(root, &stage_node);
    if (!stage || *stage >= 3 || *stage < 0) return;
    std::vector<rule::RelatedLocation> rel;
    if (stage_node != nullptr) rel.push_back({doc.path(), stage_node->region, "The ZeRO stage is set here."});
    const std::string st = "ZeRO stage " + std::to_string(*stage);
    if (const parse::Entry* p = zo->find_entry("offload_param"); p != nullptr && p->value.is_map()) {
      const parse::Node* dev = p->value.find("device");
      if (dev != nullptr && dev->kind == parse::NodeKind::String && (dev->text == "cpu" || dev->text == "nvme")) {
        ctx.report(doc.path(), p->key.region,
                   "`offload_param` with " + st +
                       ": only the ZeRO-3 optimizer offloads parameters; the stage 1/2 "
                       "optimizer is built without the parameter-offload config (" +
                       ds_cite("deepspeed/runtime/engine.py:2350-2409") +
                       "), so the parameters silently stay on the GPU. Use stage 3, or `offload_optimizer`.",
                   rel);
      }
    }
    if (const parse::Node* o = zo->find("offload_optimizer"); o != nullptr && o->is_map()) {
      if (const parse::Entry* r = o->find_entry("ratio");
          r != nullptr && (r->value.kind == parse::NodeKind::Float || r->value.kind == parse::NodeKind::Int) &&
          r->value.number < 1.0) {
        ctx.report(doc.path(), r->key.region,
                   "`offload_optimizer.ratio` " + r->value.text + " with " + st +
                       ": partial optimizer offload needs ZeRO-3, and DeepSpeed asserts \"Partial offloading only "
                       "supported for ZeRO Stage 3.\" (" +
                       ds_cite("deepspeed/runtime/zero/config.py:389-392") + ").",
                   rel);
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_param_offload_needs_stage_3() {
  return std::make_unique<ParamOffloadNeedsStage3>();
}

}  // namespace lint::rules
