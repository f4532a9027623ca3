// LCH011: a launch command that starts more processes on a node than the GPUs `CUDA_VISIBLE_DEVICES` leaves visible
// to it. accelerate (and the HF Trainer through it) puts process i on GPU i % count (accelerate v1.14.0
// src/accelerate/state.py:841-843), so two processes share a GPU and NCCL refuses the communicator ("Duplicate GPU
// detected", NCCL src/init.cc, ncclInvalidUsage); a script that calls torch.cuda.set_device(local_rank) fails with
// "invalid device ordinal".
#include <optional>
#include <string>

#include "lint/model/query.hpp"
#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

/// The number of devices a known `CUDA_VISIBLE_DEVICES` value lists (`0,1,2` -> 3), nullopt when it is empty, not
/// known, or not a plain list of ids (UUIDs and MIG names are counted as ids too).
std::optional<std::int64_t> visible_count(const parse::LaunchCommand& c, source::Region* where) {
  const auto it = c.env.find("CUDA_VISIBLE_DEVICES");
  if (it == c.env.end() || !it->second.known) return std::nullopt;
  const std::string& v = it->second.text;
  if (v.empty() || v.find('$') != std::string::npos) return std::nullopt;
  std::int64_t n = 0;
  std::size_t start = 0;
  while (start <= v.size()) {
    const std::size_t comma = v.find(',', start);
    const std::string id = v.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    // CUDA stops at the first invalid entry (`-1`): the ids after it are not visible.
    if (id.empty() || id == "-1") break;
    ++n;
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (n == 0) return std::nullopt;
  *where = it->second.region;
  return n;
}

std::string message(std::int64_t visible, std::int64_t procs, const std::string& what, const std::string& cvd) {
  return "`CUDA_VISIBLE_DEVICES=" + cvd + "` leaves " + std::to_string(visible) + " GPU" + (visible == 1 ? "" : "s") +
         " visible, but " + what + " starts " + std::to_string(procs) +
         " processes on this node: accelerate and the HF Trainer put process i on GPU i % " + std::to_string(visible) +
         ", so processes share a GPU and NCCL stops with \"Duplicate GPU detected\" (a script that calls "
         "`torch.cuda.set_device(local_rank)` fails with \"invalid device ordinal\"). Start " +
         std::to_string(visible) + " process" + (visible == 1 ? "" : "es") + " per node, or make " +
         std::to_string(procs) + " GPUs visible.";
}

class MoreProcessesThanVisibleGpus final : public rule::Rule {
 public:
  // torchrun: `--nproc_per_node N` on the command line.
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::LaunchScript) return;
    for (const parse::LaunchCommand& c : doc.launch_commands) {
      if (c.tool != parse::LaunchTool::Torchrun) continue;
      source::Region env_region;
      const std::optional<std::int64_t> visible = visible_count(c, &env_region);
      if (!visible) continue;
      const parse::Flag* f = parse::find_flag(c, "nproc_per_node");
      if (f == nullptr || !f->value) continue;
      const std::optional<std::int64_t> procs = parse::int_of(&*f->value);
      if (!procs || *procs <= *visible) continue;
      const std::string cvd = c.env.at("CUDA_VISIBLE_DEVICES").text;
      std::vector<rule::RelatedLocation> related;
      if (env_region.valid()) related.push_back({doc.path(), env_region, "The visible GPUs are set here."});
      // The flag as written (`--nproc-per-node=8`, `--nproc_per_node 8`).
      std::string written = "--nproc_per_node " + f->value->text;
      for (const parse::Word& w : c.launcher_args) {
        if (w.region.begin_byte != f->region.begin_byte) continue;
        written = w.text.find('=') != std::string::npos ? w.text : w.text + " " + f->value->text;
        break;
      }
      ctx.report(doc.path(), f->region, message(*visible, *procs, "`" + written + "`", cvd), std::move(related));
    }
  }

  // accelerate launch: the effective num_processes per machine, unless `gpu_ids` replaces the variable.
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch || !l.command || l.command_document == nullptr) return;
    source::Region env_region;
    const std::optional<std::int64_t> visible = visible_count(*l.command, &env_region);
    if (!visible) return;
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind != model::ValueKind::String || (dt.text != "MULTI_GPU" && dt.text != "FSDP" && dt.text != "DEEPSPEED"))
      return;
    // accelerate exports `gpu_ids` as CUDA_VISIBLE_DEVICES (utils/launch.py:260-277): ACC005's territory.
    if (parse::find_flag(*l.command, "gpu_ids") != nullptr) return;
    if (const model::Document* config = model::query::accelerate_config(l);
        config != nullptr && config->root_map() != nullptr) {
      if (const parse::Node* g = config->root_map()->find("gpu_ids");
          g != nullptr && !(g->kind == parse::NodeKind::String && g->text == "all") && g->kind != parse::NodeKind::Null)
        return;
    }
    const model::Effective* np = l.get(model::keys::kNumProcesses);
    if (np == nullptr || np->value.kind != model::ValueKind::Int || np->decided_by == nullptr ||
        np->decided_by->origin == model::Origin::Default || np->decided_by->path.empty())
      return;
    std::int64_t machines = 1;
    if (const model::Effective* nm = l.get(model::keys::kNumMachines); nm != nullptr) {
      if (nm->value.kind != model::ValueKind::Int || nm->value.integer < 1) return;
      machines = nm->value.integer;
    }
    const std::int64_t per = np->value.integer / machines;
    if (per <= *visible) return;
    const std::string what = np->decided_by->origin == model::Origin::LaunchFlag
                                 ? "`--num_processes " + std::to_string(np->value.integer) + "`"
                                 : "`num_processes: " + std::to_string(np->value.integer) + "`";
    std::vector<rule::RelatedLocation> related;
    if (env_region.valid())
      related.push_back({l.command_document->path(), env_region, "The visible GPUs are set here."});
    ctx.report(np->decided_by->path, np->decided_by->region,
               message(*visible, per, what + (machines > 1 ? " over " + std::to_string(machines) + " machines" : ""),
                       l.command->env.at("CUDA_VISIBLE_DEVICES").text),
               std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_more_processes_than_visible_gpus() {
  return std::make_unique<MoreProcessesThanVisibleGpus>();
}

}  // namespace lint::rules
