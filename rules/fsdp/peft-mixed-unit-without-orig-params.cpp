// FSDP009: FSDP1 with `use_orig_params` false and a PEFT model whose wrap policy puts the trainable adapters and the
// frozen base weights in one unit: FSDP refuses to flatten the unit and raises ValueError when it wraps the model.
#include "rules/fsdp/peft_units.hpp"

namespace lint::rules {
namespace {

class PeftMixedUnitWithoutOrigParams final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const auto m = peft_units::find(l);
    if (!m || m->use_orig_params) return;
    std::string message =
        "FSDP1 with `use_orig_params` " + std::string(m->use_orig_params_site ? "false" : "false (the default)") +
        " flattens each unit into one FlatParameter that must be all frozen or all trainable, but " + m->policy +
        ": the PEFT model's trainable adapter weights and its frozen base weights share a unit, so wrapping raises "
        "ValueError: Must flatten tensors with uniform `requires_grad` when `use_orig_params=False`" +
        std::string(m->half_base ? " (here the base is loaded in half precision while PEFT keeps the adapters in "
                                   "float32, so the dtype check fails first: Must flatten tensors with uniform dtype)"
                                 : "") +
        ". " + peft_units::fix_advice(*m);
    ctx.report(m->report.path, m->report.region, std::move(message), peft_units::related(*m), std::nullopt,
               std::string(model::keys::kUseOrigParams));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_peft_mixed_unit_without_orig_params() {
  return std::make_unique<PeftMixedUnitWithoutOrigParams>();
}

}  // namespace lint::rules
