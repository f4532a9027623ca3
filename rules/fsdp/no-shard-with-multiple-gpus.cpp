// FSDP014: FSDP1 NO_SHARD with more than one process: torch deprecates it in favour of DDP.
#include <string>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

class NoShardWithMultipleGpus final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled() || l.fsdp_version() != 1) return;
    const auto world = l.world_size();
    if (!world || *world <= 1) return;
    const model::Effective* s = l.get(model::keys::kShardingStrategy);
    if (s == nullptr || s->value.kind != model::ValueKind::String || s->value.text != "NO_SHARD") return;
    const model::Setting* site = s->decided_by;
    if (site == nullptr || site->origin == model::Origin::Default || site->path.empty()) return;
    ctx.report(site->path, site->region,
               "NO_SHARD with " + std::to_string(*world) +
                   " processes replicates parameters, gradients and optimizer state on every GPU like DDP, but "
                   "through FSDP's flat-parameter machinery; torch deprecates it (FutureWarning \"The `NO_SHARD` "
                   "sharding strategy is deprecated. If having issues, please use `DistributedDataParallel` "
                   "instead.\"). Use DDP (`distributed_type: MULTI_GPU`), or a sharding strategy if memory is the "
                   "reason for FSDP.",
               related_to(written_site(l, model::keys::kWorldSize), "The process count is set here."));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_no_shard_with_multiple_gpus() {
  return std::make_unique<NoShardWithMultipleGpus>();
}

}  // namespace lint::rules
