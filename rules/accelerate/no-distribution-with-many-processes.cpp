// ACC010: `distributed_type: NO` with `num_processes` > 1: with a config file, `accelerate launch` runs the
// single-process launcher, so the count is ignored.
#include <string>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

class NoDistributionWithManyProcesses final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch) return;
    const model::Document* cfg = accelerate_config(l);
    if (cfg == nullptr) return;
    const model::Effective* dt = l.get(model::keys::kDistributedType);
    const model::Effective* np = l.get(model::keys::kNumProcesses);
    if (dt == nullptr || np == nullptr || dt->value.kind != model::ValueKind::String || dt->value.text != "NO") return;
    if (dt->decided_by == nullptr || dt->decided_by->path != cfg->path()) return;
    if (np->value.kind != model::ValueKind::Int || np->value.integer <= 1) return;
    const model::Setting* site = np->decided_by;
    if (site == nullptr || site->origin == model::Origin::Default || site->path.empty()) return;
    ctx.report(site->path, site->region,
               "`num_processes: " + std::to_string(np->value.integer) +
                   "` with `distributed_type: NO`: with a config file, `accelerate launch` picks its launcher from "
                   "distributed_type, and NO selects the single-process launcher, so one process runs and this count "
                   "is ignored. Use `distributed_type: MULTI_GPU` (or FSDP / DEEPSPEED) to start " +
                   std::to_string(np->value.integer) + " processes, or `num_processes: 1`.",
               related_to(dt->decided_by, "distributed_type is set here"));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_no_distribution_with_many_processes() {
  return std::make_unique<NoDistributionWithManyProcesses>();
}

}  // namespace lint::rules
