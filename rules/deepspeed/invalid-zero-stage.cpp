// DS008: a ZeRO stage outside 0..3.
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

class InvalidZeroStage final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::DeepSpeedConfig || doc.root_map() == nullptr) return;
    const parse::Node* zo = doc.root_map()->find("zero_optimization");
    if (zo == nullptr || !zo->is_map()) return;
    const parse::Node* st = zo->find("stage");
    if (st == nullptr) return;
    const bool bad_int = st->kind == parse::NodeKind::Int && (st->integer < 0 || st->integer > 3);
    const bool fractional = st->kind == parse::NodeKind::Float;
    if (!bad_int && !fractional) return;
    ctx.report(doc.path(), st->region,
               "ZeRO stage " + st->text +
                   " does not exist: `zero_optimization.stage` is one of 0, 1, 2, 3 "
                   "(`ZeroStageEnum`, " +
                   ds_cite("deepspeed/runtime/zero/config.py:81-95") +
                   "), and DeepSpeed rejects other values with a validation error when it reads the config.");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_invalid_zero_stage() {
  return std::make_unique<InvalidZeroStage>();
}

}  // namespace lint::rules
