// FSDP017: FSDP1 through accelerate or the Trainer without backward_prefetch: both default to no prefetch, so the
// backward all-gathers do not overlap with computation.
#include <string>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

class BackwardPrefetchOff final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled() || l.fsdp_version() != 1) return;
    // torch's own FullyShardedDataParallel defaults to BACKWARD_PRE; only the accelerate plugin path defaults to none.
    for (const model::Setting& s : l.settings()) {
      if (s.origin == model::Origin::TorchCall || s.origin == model::Origin::LightningStrategy) return;
    }
    const model::Effective* bp = l.get(model::keys::kBackwardPrefetch);
    if (bp == nullptr || bp->value.kind != model::ValueKind::String || bp->value.text != "NO_PREFETCH") return;
    const model::Setting* by = bp->decided_by;
    const bool defaulted =
        by == nullptr || by->origin == model::Origin::Default ||
        (by->origin == model::Origin::TrainingArguments && by->spelled.find("default") != std::string::npos);
    if (!defaulted) return;
    const model::Effective* on = l.get(model::keys::kFsdpEnabled);
    const model::Setting* site = on != nullptr ? on->decided_by : nullptr;
    if (site == nullptr || site->origin == model::Origin::Default || site->path.empty()) return;
    ctx.report(site->path, site->region,
               "FSDP1 runs here without backward prefetch: accelerate's FSDP plugin and the Trainer default "
               "`backward_prefetch` to none (NO_PREFETCH), so each unit's all-gather in backward waits for the "
               "previous unit's gradient computation instead of overlapping with it. torch's own default is "
               "BACKWARD_PRE; set `fsdp_backward_prefetch: BACKWARD_PRE` (Trainer: `\"backward_prefetch\": "
               "\"backward_pre\"` in fsdp_config) unless memory is too tight for one extra unit's parameters.");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_backward_prefetch_off() {
  return std::make_unique<BackwardPrefetchOff>();
}

}  // namespace lint::rules
