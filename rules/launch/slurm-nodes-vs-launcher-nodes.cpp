// LCH012: an sbatch script whose `#SBATCH --nodes` differs from the node count of the launcher srun starts on each
// node (torchrun `--nnodes`, accelerate `num_machines`). More nodes than the launcher counts: each node trains on its
// own (the same run several times, not one run over all nodes); fewer: the rendezvous waits for nodes that were never
// allocated until it times out.
#include <algorithm>
#include <optional>
#include <string>

#include "rules/launch/slurm_support.hpp"

namespace lint::rules {
namespace {

struct LauncherNodes {
  std::int64_t nodes = 1;
  std::string written;  ///< `--nnodes 1`, `num_machines: 1`, or how the default is meant
  std::string path;
  source::Region region;
};

/// torchrun's `--nnodes` (the upper bound of `a:b`), 1 when not given; nullopt when not statically known.
std::optional<LauncherNodes> torchrun_nodes(const model::Launch& l) {
  const parse::Flag* f = parse::find_flag(*l.command, "nnodes");
  if (f == nullptr && l.command->opaque_launcher_args) return std::nullopt;  // `torchrun $ARGS`: may hold it
  if (f == nullptr)
    return LauncherNodes{1, "torchrun without `--nnodes` (one node)", l.command_document->path(), l.command->region};
  if (!f->value || !f->value->known) return std::nullopt;
  const std::string& t = f->value->text;
  parse::Word upper = *f->value;
  if (const auto colon = t.find(':'); colon != std::string::npos) upper.text = t.substr(colon + 1);
  const std::optional<std::int64_t> n = parse::int_of(&upper);
  if (!n) return std::nullopt;
  return LauncherNodes{*n, "`--nnodes " + t + "`", l.command_document->path(), f->region};
}

/// accelerate's effective `num_machines`, when a config of the launch or the command line decides it.
std::optional<LauncherNodes> accelerate_nodes(const model::Launch& l) {
  const model::Effective* nm = l.get(model::keys::kNumMachines);
  if (nm == nullptr || nm->value.kind != model::ValueKind::Int || nm->decided_by == nullptr) return std::nullopt;
  const model::Setting* s = nm->decided_by;
  if (s->origin == model::Origin::Default || s->path.empty()) return std::nullopt;
  const std::string written = s->origin == model::Origin::LaunchFlag
                                  ? "`--num_machines " + std::to_string(nm->value.integer) + "`"
                                  : "`num_machines: " + std::to_string(nm->value.integer) + "`";
  return LauncherNodes{nm->value.integer, written, s->path, s->region};
}

/// torchrun with `--rdzv_backend c10d` and a `--rdzv_endpoint`: every node's launcher joins the same rendezvous.
bool shared_c10d_rendezvous(const model::Launch& l) {
  if (l.command->tool != parse::LaunchTool::Torchrun) return false;
  const parse::Flag* backend = parse::find_flag(*l.command, "rdzv_backend");
  const parse::Flag* endpoint = parse::find_flag(*l.command, "rdzv_endpoint");
  return backend != nullptr && backend->value && backend->value->known && backend->value->text == "c10d" &&
         endpoint != nullptr && endpoint->value;
}

class SlurmNodesVsLauncherNodes final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!slurm::started_by_srun(l)) return;
    // `srun -N1 ...` / `srun --nodes=1 ...` runs the step on fewer nodes than the allocation: srun's own options
    // are not modelled, so a node count there keeps the rule silent.
    {
      const std::string& st = l.command_document->source->text();
      const auto b = l.command->region.begin_byte, e = std::min(l.command->region.end_byte, st.size());
      const std::string text = st.substr(b, e - b);
      const auto srun = text.find("srun");
      const auto launcher = text.find(l.command->tool == parse::LaunchTool::Torchrun ? "torch" : "accelerate", srun);
      const std::string srun_opts = text.substr(srun, launcher == std::string::npos ? 0 : launcher - srun);
      if (srun_opts.find(" -N") != std::string::npos || srun_opts.find("--nodes") != std::string::npos) return;
    }
    const std::map<std::string, slurm::Directive> sb = slurm::sbatch_directives(*l.command_document);
    const auto nodes_it = sb.find("--nodes");
    if (nodes_it == sb.end()) return;
    const slurm::Directive& nodes = nodes_it->second;
    std::optional<LauncherNodes> ln;
    if (l.command->tool == parse::LaunchTool::Torchrun)
      ln = torchrun_nodes(l);
    else if (l.command->tool == parse::LaunchTool::AccelerateLaunch)
      ln = accelerate_nodes(l);
    if (!ln || ln->nodes == nodes.value || nodes.value < 1 || ln->nodes < 1) return;
    const std::string alloc = "`#SBATCH --nodes=" + std::to_string(nodes.value) + "`";
    std::string msg;
    if (nodes.value > ln->nodes && shared_c10d_rendezvous(l)) {
      // One c10d rendezvous for every node (`--rdzv_backend c10d --rdzv_endpoint host:port`): it admits
      // `--nnodes` nodes; the launchers of the other nodes wait to join a later round and do not train.
      msg = alloc + " allocates " + std::to_string(nodes.value) + " nodes and srun starts the launcher on each, but " +
            ln->written + " counts " + std::to_string(ln->nodes) + ": the shared c10d rendezvous admits " +
            std::to_string(ln->nodes) + " node" + (ln->nodes == 1 ? "" : "s") +
            (nodes.value - ln->nodes == 1
                 ? std::string(" and the launcher of the other node waits to join a later round (its GPUs stay idle)")
                 : " and the launchers of the other " + std::to_string(nodes.value - ln->nodes) +
                       " nodes wait to join a later round (their GPUs stay idle)") +
            ". Make the launcher's node count " + std::to_string(nodes.value) + " (`--nnodes $SLURM_NNODES`).";
    } else if (nodes.value > ln->nodes) {
      msg = alloc + " allocates " + std::to_string(nodes.value) + " nodes and srun starts the launcher on each, but " +
            ln->written + " counts " + std::to_string(ln->nodes) + ": the nodes do not form one run; each group of " +
            std::to_string(ln->nodes) + " trains on its own (the same steps " +
            std::to_string(nodes.value / ln->nodes) +
            " times over, writing the same checkpoints). Make the launcher's node count " +
            std::to_string(nodes.value) + " (`$SLURM_NNODES`) with a rendezvous on the first node.";
    } else {
      msg = alloc + " allocates " + std::to_string(nodes.value) + " node" + (nodes.value == 1 ? "" : "s") + ", but " +
            ln->written + " waits for " + std::to_string(ln->nodes) +
            ": the rendezvous never completes and times out. Allocate " + std::to_string(ln->nodes) +
            " nodes, or set the launcher's node count to " + std::to_string(nodes.value) + ".";
    }
    ctx.report(ln->path, ln->region, msg,
               {rule::RelatedLocation{l.command_document->path(), nodes.region, "SLURM's allocation is set here."}});
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_slurm_nodes_vs_launcher_nodes() {
  return std::make_unique<SlurmNodesVsLauncherNodes>();
}

}  // namespace lint::rules
