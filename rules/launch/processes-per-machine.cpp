// LCH005: accelerate's `num_processes` is the total over all machines; one that is not a positive multiple of
// `num_machines` starts a different number of processes than written.
#include <string>

#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

class ProcessesPerMachine final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch) return;
    const model::Effective* np = l.get(model::keys::kNumProcesses);
    const model::Effective* nm = l.get(model::keys::kNumMachines);
    if (np == nullptr || nm == nullptr || np->value.kind != model::ValueKind::Int ||
        nm->value.kind != model::ValueKind::Int)
      return;
    const std::int64_t procs = np->value.integer;
    const std::int64_t machines = nm->value.integer;
    if (machines <= 1 || procs <= 0) return;
    // Only the multi-process launchers split the count (utils/launch.py prepare_multi_gpu_env /
    // prepare_deepspeed_cmd_env); a NO launch runs one process whatever the count.
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind != model::ValueKind::String || dt.text == "NO") return;
    if (procs % machines == 0) return;
    const model::Setting* site = np->decided_by;
    if (site == nullptr || site->origin == model::Origin::Default || site->path.empty()) return;
    const std::int64_t per = procs / machines;
    std::string what = per == 0 ? "none at all"
                                : std::to_string(per) + " per machine, " + std::to_string(per * machines) +
                                      " in all instead of " + std::to_string(procs);
    const std::string written = site->origin == model::Origin::LaunchFlag
                                    ? "`--num_processes " + std::to_string(procs) + "`"
                                    : "`num_processes: " + std::to_string(procs) + "`";
    ctx.report(site->path, site->region,
               written + " is the total over all " + std::to_string(machines) +
                   " machines: accelerate starts num_processes // num_machines = " + std::to_string(per) +
                   (per == 1 ? " process" : " processes") + " on each (" + what +
                   "). Set `num_processes` to (processes per machine) x `num_machines`, e.g. " +
                   std::to_string((per == 0 ? 1 : per) * machines) + " or " + std::to_string((per + 1) * machines) +
                   ".",
               related_to(nm->decided_by, "num_machines is set here"));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_processes_per_machine() {
  return std::make_unique<ProcessesPerMachine>();
}

}  // namespace lint::rules
