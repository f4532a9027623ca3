// ACC014: accelerate's multi-GPU launcher with one process on one machine. `accelerate launch --multi_gpu
// --num_processes 1` is refused (accelerate v1.14.0 src/accelerate/commands/launch.py:1202-1203); with the count
// from the config file the check has already passed, and one process is started: no data parallelism.
#include <string>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

class MultiGpuWithOneProcess final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch) return;
    const model::Effective* dt = l.get(model::keys::kDistributedType);
    const model::Effective* np = l.get(model::keys::kNumProcesses);
    if (dt == nullptr || np == nullptr || dt->value.kind != model::ValueKind::String || dt->value.text != "MULTI_GPU")
      return;
    if (np->value.kind != model::ValueKind::Int || np->value.integer != 1) return;
    const model::Setting* site = np->decided_by;
    const model::Setting* type_site = dt->decided_by;
    if (site == nullptr || site->origin == model::Origin::Default || site->path.empty()) return;
    if (type_site == nullptr || type_site->origin == model::Origin::Default || type_site->path.empty()) return;
    if (site->origin != model::Origin::ConfigFile && site->origin != model::Origin::LaunchFlag) return;
    // Several machines with one process each is a real multi-node layout.
    const model::Value& machines = l.value(model::keys::kNumMachines);
    if (machines.kind == model::ValueKind::Int && machines.integer > 1) return;
    if (machines.kind != model::ValueKind::Int && machines.kind != model::ValueKind::Unknown) return;

    const bool refused = site->origin == model::Origin::LaunchFlag && type_site->origin == model::Origin::LaunchFlag;
    std::string message =
        refused ? "`--multi_gpu` with `--num_processes 1`: `accelerate launch` refuses it before starting anything "
                  "(\"You need to use at least 2 processes to use `--multi_gpu`.\", accelerate v1.14.0 "
                  "src/accelerate/commands/launch.py:1202-1203). Give the number of GPUs as `--num_processes`, or "
                  "drop `--multi_gpu` for one process."
                : "`num_processes: 1` with `distributed_type: MULTI_GPU` on one machine: `accelerate launch` starts "
                  "one process, so the model trains on one GPU with no data parallelism (the `--multi_gpu` check of "
                  "at least 2 processes reads only the command line, accelerate v1.14.0 "
                  "src/accelerate/commands/launch.py:1202-1203). `num_processes` is the number of processes over all "
                  "machines: set it to the number of GPUs.";
    ctx.report(site->path, site->region, std::move(message),
               related_to(type_site, "The multi-GPU launcher is chosen here."),
               refused ? std::optional<rule::Severity>(rule::Severity::Error) : std::nullopt);
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_multi_gpu_with_one_process() {
  return std::make_unique<MultiGpuWithOneProcess>();
}

}  // namespace lint::rules
