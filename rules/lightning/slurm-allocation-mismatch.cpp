// PL004: a Lightning Trainer/Fabric started with `srun` from an sbatch script whose #SBATCH allocation disagrees with
// `devices` / `num_nodes`: Lightning raises (lightning src/lightning/fabric/plugins/environments/slurm.py:158-172,
// :211-224), the device parser refuses more GPUs than the node was given, or SLURM starts fewer tasks than Lightning
// counts.
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "rules/launch/slurm_support.hpp"

namespace lint::rules {
namespace {

using slurm::Directive;
using slurm::sbatch_directives;

bool is_lightning_entry(const model::PyCall& c) {
  if (c.name != "Trainer" && c.name != "Fabric") return false;
  return c.callee.starts_with("lightning") || c.callee.starts_with("pytorch_lightning") || c.callee.starts_with("L.") ||
         c.callee.starts_with("pl.");
}

class SlurmAllocationMismatch final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!slurm::started_by_srun(l)) return;  // Lightning reads srun's tasks
    const std::map<std::string, Directive> sb = sbatch_directives(*l.command_document);
    if (sb.empty()) return;
    auto get = [&](const char* k) -> const Directive* {
      const auto it = sb.find(k);
      return it == sb.end() ? nullptr : &it->second;
    };
    const Directive* ntasks = get("--ntasks");
    const Directive* per_node = get("--ntasks-per-node");
    const Directive* nodes = get("--nodes");
    const Directive* gpus = get("gpus-per-node");
    const std::string& path = l.command_document->path();

    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      for (const model::PyCall& c : d->python->calls) {
        if (!is_lightning_entry(c) || c.has_unresolved_unpacking) continue;
        const model::PyArg* dev = c.keyword("devices");
        const model::PyArg* nn = c.keyword("num_nodes");
        // `devices` as an explicit count (not "auto", a list or a variable); `num_nodes` defaults to 1.
        const bool has_devices = dev != nullptr && dev->value.kind == model::ValueKind::Int;
        const std::int64_t devices = has_devices ? dev->value.integer : 0;
        const bool has_num_nodes = nn == nullptr || nn->value.kind == model::ValueKind::Int;
        const std::int64_t num_nodes = nn != nullptr && has_num_nodes ? nn->value.integer : 1;
        const std::string call = c.name + "(...)";
        auto at_call = [&](const model::PyArg* a, std::string what) {
          return std::vector<rule::RelatedLocation>{
              rule::RelatedLocation{d->path(), a != nullptr ? a->region : c.region, std::move(what)}};
        };
        if (ntasks != nullptr && ntasks->value > 1 && per_node == nullptr) {
          ctx.report(path, ntasks->region,
                     "Lightning refuses `--ntasks=" + std::to_string(ntasks->value) +
                         "` without `--ntasks-per-node` under srun (RuntimeError: this variable is not supported); "
                         "use `--ntasks-per-node` with `--nodes`.",
                     at_call(nullptr, "The Lightning entry point started by srun."));
        }
        // Lightning compares devices / num_nodes with SLURM only in the launcher of its multi-process strategies
        // (strategies/launchers/subprocess_script.py:99). One device on one node with the default strategy is a
        // SingleDeviceStrategy (trainer/connectors/accelerator_connector.py:409-419): no check, and each task srun
        // starts trains on its own (oracle case pl4-nodes).
        const model::PyArg* strat = c.keyword("strategy");
        const bool auto_strategy =
            strat == nullptr || (strat->value.kind == model::ValueKind::String && strat->value.text == "auto");
        const bool single_known = auto_strategy && has_devices && devices == 1 && has_num_nodes && num_nodes == 1;
        auto mismatch = [&](const Directive* d, std::string what, const model::PyArg* at, std::string at_what) {
          if (single_known) {
            ctx.report(path, d->region,
                       what +
                           ": with one device on one node Lightning runs a single-device Trainer and does not "
                           "check SLURM's counts, so every task srun starts trains on its own (the same run, "
                           "several times, not one distributed run). Make them equal.",
                       at_call(at, std::move(at_what)), rule::Severity::Warning);
          } else {
            ctx.report(path, d->region, what + ": Lightning raises ValueError. Make them equal.",
                       at_call(at, std::move(at_what)));
          }
        };
        if (per_node != nullptr && has_devices && devices != per_node->value) {
          mismatch(per_node,
                   "`--ntasks-per-node=" + std::to_string(per_node->value) + "` but " + call +
                       " asks for `devices=" + std::to_string(devices) + "`; the tasks per node must equal `devices`",
                   dev, "devices is set here.");
        }
        if (nodes != nullptr && has_num_nodes && num_nodes != nodes->value) {
          mismatch(nodes,
                   "`--nodes=" + std::to_string(nodes->value) + "` but " + call +
                       " runs with `num_nodes=" + std::to_string(num_nodes) + "`" +
                       (nn == nullptr ? " (its default)" : "") + "; the SLURM node count must equal `num_nodes`",
                   nn, nn != nullptr ? "num_nodes is set here." : "num_nodes is not set (default 1).");
        }
        if (gpus != nullptr && has_devices && devices > gpus->value) {
          ctx.report(path, gpus->region,
                     "The job is given " + std::to_string(gpus->value) + " GPU(s) per node but " + call +
                         " asks for `devices=" + std::to_string(devices) +
                         "`: SLURM exposes only the allocated GPUs, "
                         "and Lightning's device parser raises (\"You requested gpu ... But your machine only has\").",
                     at_call(dev, "devices is set here."));
        }
        if (ntasks != nullptr && per_node != nullptr) {
          const std::int64_t want = per_node->value * (nodes != nullptr ? nodes->value : 1);
          if (ntasks->value < want) {
            ctx.report(path, ntasks->region,
                       "`--ntasks=" + std::to_string(ntasks->value) + "` takes precedence over `--ntasks-per-node=" +
                           std::to_string(per_node->value) + "`: srun starts " + std::to_string(ntasks->value) +
                           " task(s) in all, while Lightning counts its devices from the tasks per node (" +
                           std::to_string(want) +
                           " expected): the run does not use the processes and GPUs the "
                           "script counts. Drop `--ntasks` or make it `--ntasks-per-node` x `--nodes`.",
                       at_call(nullptr, "The Lightning entry point started by srun."));
          }
        }
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_slurm_allocation_mismatch() {
  return std::make_unique<SlurmAllocationMismatch>();
}

}  // namespace lint::rules
