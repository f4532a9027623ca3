// HF007: the Trainer's `gradient_checkpointing=True` with FSDP that reshards after forward: the recomputation
// all-gathers the parameters again; FSDP's own activation_checkpointing avoids it.
#include <string>

#include "lint/model/resolve.hpp"
#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

class GradientCheckpointingWithFsdp final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    // Both on is FSDP008's error (the Trainer raises); a strategy that keeps parameters gathered has no extra
    // all-gather.
    const model::Value& fsdp_ac = l.value(model::keys::kActivationCheckpointing);
    if (fsdp_ac.kind == model::ValueKind::Bool && fsdp_ac.boolean) return;
    if (model::keeps_params_unsharded(l, nullptr).value_or(false)) return;
    for (const trainer::TrainerArgs& t : trainer::trainer_args(l)) {
      if (t.gradient_checkpointing != true) continue;
      // The Trainer's own `fsdp` (where transformers warns); FSDP turned on only by the launcher's config is left
      // alone.
      if (!t.fsdp_known || !t.fsdp_on) continue;
      for (const std::string& w : t.words) {
        if (w == "shard_grad_op" || w == "hybrid_shard_zero2") return;
      }
      const bool by_default = t.trl && t.gradient_checkpointing_region == t.call_region;
      ctx.report(t.path, t.gradient_checkpointing_region,
                 std::string(by_default ? "TRL configs default `gradient_checkpointing=True`, and " : "") +
                     "`gradient_checkpointing=True` with FSDP recomputes each layer's forward in backward through "
                     "the FSDP-wrapped module, which all-gathers its parameters a second time (transformers warns: "
                     "\"the latter introduces a redundant AllGather in the backward pass\", huggingface/"
                     "transformers#30404). Use FSDP's own checkpointing instead: `activation_checkpointing: true` in "
                     "fsdp_config (or `fsdp_activation_checkpointing: true` in the accelerate config) with "
                     "`gradient_checkpointing=False`.",
                 {}, std::nullopt, std::string(model::keys::kGradientCheckpointing));
      break;
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_gradient_checkpointing_with_fsdp() {
  return std::make_unique<GradientCheckpointingWithFsdp>();
}

}  // namespace lint::rules
