// FSDP015: `accelerate launch --multi_gpu` (or --use_deepspeed) with a config whose distributed_type is FSDP.
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class FsdpDisabledByLaunchFlag final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch) return;
    const model::Effective* e = l.get(model::keys::kDistributedType);
    if (e == nullptr || e->decided_by == nullptr || e->decided_by->origin != model::Origin::LaunchFlag) return;
    const model::Value& v = e->value;
    if (v.kind != model::ValueKind::String || v.text == "FSDP") return;
    for (const model::Setting* lost : e->overridden) {
      if (lost->origin != model::Origin::ConfigFile || lost->value.text != "FSDP") continue;
      ctx.report(e->decided_by->path, e->decided_by->region,
                 "`" + e->decided_by->spelled + "` replaces the config's `distributed_type: FSDP` with " + v.text +
                     ": FSDP is silently off, the whole `fsdp_config` is ignored and every GPU holds the full model. "
                     "Remove the flag (or use `--use_fsdp`).",
                 related_to(lost, "The config asks for FSDP here."));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_fsdp_disabled_by_launch_flag() { return std::make_unique<FsdpDisabledByLaunchFlag>(); }

}  // namespace lint::rules
