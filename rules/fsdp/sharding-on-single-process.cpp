// FSDP012: FSDP with a world size of 1: there is no other rank to shard with, and FSDP1 switches to NO_SHARD.
#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::ValueKind;

class ShardingOnSingleProcess final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    const auto ws = l.world_size();
    if (!ws || *ws != 1) return;
    const model::Value& machines = l.value(model::keys::kNumMachines);
    if (machines.kind != ValueKind::Int || machines.integer != 1) return;
    // Parameter offload still moves state off the GPU with one process; not knowing it, stay silent.
    const model::Value& offload = l.value(model::keys::kOffloadParams);
    if (offload.kind != ValueKind::Bool || offload.boolean) return;
    const model::Setting* site = written_site(l, model::keys::kNumProcesses);
    if (site == nullptr) return;

    const std::string written = site->spelled.starts_with("--") ? site->spelled + " 1" : site->spelled + ": 1";
    std::string message = "FSDP runs with a single process (`" + written +
                          "`): there is no other rank to shard with, so every "
                          "parameter, gradient and optimizer state stays whole on the one GPU and FSDP saves no memory";
    if (l.fsdp_version() == 1)
      message += " (FSDP1 even switches the strategy to NO_SHARD, with a warning, when the world size is 1)";
    message += ". Set `num_processes` to the number of GPUs across all machines, or train without FSDP on one GPU.";
    ctx.report(site->path, site->region, std::move(message), {}, std::nullopt, std::string(model::keys::kNumProcesses));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_sharding_on_single_process() {
  return std::make_unique<ShardingOnSingleProcess>();
}

}  // namespace lint::rules
