// FSDP016: one launch turns on both FSDP (the Trainer's `fsdp`) and DeepSpeed.
#include "lint/model/deepspeed_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class FsdpAndDeepspeedTogether final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || !ds.turned_on) return;
    // The Trainer's own FSDP option: the Trainer raises when it also sees DeepSpeed (trainer.py:458-461).
    const model::Setting* trainer_fsdp = nullptr;
    for (const model::Setting* s : l.assignments(model::keys::kFsdpEnabled)) {
      if (s->origin == model::Origin::TrainingArguments && s->value.kind == model::ValueKind::Bool && s->value.boolean)
        trainer_fsdp = s;
    }
    if (trainer_fsdp == nullptr) return;
    ctx.report(trainer_fsdp->path, trainer_fsdp->region,
               "The Trainer's `fsdp` is set while DeepSpeed is on (`" + ds.turned_on->what +
                   "`): the Trainer raises ValueError(\"Using --fsdp xxx together with --deepspeed is not possible, "
                   "deactivate one of those flags.\") when it is created (transformers 5.17.0 `trainer.py:458-461`). "
                   "Choose one of FSDP and DeepSpeed.",
               {{ds.turned_on->path, ds.turned_on->region, "DeepSpeed is turned on here."}});
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_fsdp_and_deepspeed_together() {
  return std::make_unique<FsdpAndDeepspeedTogether>();
}

}  // namespace lint::rules
