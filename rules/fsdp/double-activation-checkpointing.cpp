// FSDP008: FSDP activation checkpointing together with the Trainer's gradient_checkpointing (the Trainer raises),
// or with the script's own gradient_checkpointing_enable() (redundant recomputation).
#include "rules/support.hpp"

namespace lint::rules {
namespace {

const model::Setting* on_site(const model::Launch& l, std::string_view key) {
  const model::Effective* e = l.get(key);
  if (e == nullptr || e->decided_by == nullptr) return nullptr;
  const model::Value& v = e->value;
  return v.kind == model::ValueKind::Bool && v.boolean ? e->decided_by : nullptr;
}

class DoubleActivationCheckpointing final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    const model::Setting* fsdp_ac = on_site(l, model::keys::kActivationCheckpointing);
    if (fsdp_ac == nullptr) return;
    const std::string ac_where = fsdp_ac->origin == model::Origin::Default ? fsdp_ac->note : where(*fsdp_ac);
    if (const model::Setting* gc = on_site(l, model::keys::kGradientCheckpointing)) {
      if (gc->origin == model::Origin::Default) return;
      const bool trl_default = model::is_call_default(*gc);
      ctx.report(gc->path, gc->region,
                 std::string(trl_default ? "This TRL config defaults to `gradient_checkpointing=True`"
                                         : "`gradient_checkpointing` is on") +
                     " while FSDP activation checkpointing is on (" + ac_where +
                     "): the Trainer raises ValueError \"The activation_checkpointing in FSDP config and the "
                     "gradient_checkpointing in training arg can't be set to True simultaneously\". Keep FSDP's "
                     "activation checkpointing and pass `gradient_checkpointing=False`.",
                 related_to(fsdp_ac, "FSDP activation checkpointing is turned on here."), rule::Severity::Error,
                 std::string(model::keys::kGradientCheckpointing));
      return;
    }
    if (const model::Setting* call = on_site(l, model::keys::kModelGradientCheckpointing)) {
      ctx.report(call->path, call->region,
                 "The script enables the model's gradient checkpointing while FSDP activation checkpointing is on (" +
                     ac_where + "): layers are recomputed twice in backward. Keep one of the two.",
                 related_to(fsdp_ac, "FSDP activation checkpointing is turned on here."), rule::Severity::Warning,
                 std::string(model::keys::kModelGradientCheckpointing));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_double_activation_checkpointing() {
  return std::make_unique<DoubleActivationCheckpointing>();
}

}  // namespace lint::rules
