// TT002: training.global_batch_size not a multiple of local_batch_size * data-parallel degree.
#include <string>

#include "rules/torchtitan/torchtitan_support.hpp"

namespace lint::rules {
namespace {

class GlobalBatchNotDivisible final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = torchtitan::config_of(l);
    if (doc == nullptr) return;
    if (torchtitan::command_overrides(l, "training") || torchtitan::command_overrides(l, "parallelism")) return;
    const auto global = torchtitan::int_option(*doc, "training", "global_batch_size", -1);
    const auto local = torchtitan::int_option(*doc, "training", "local_batch_size", 8);
    if (!global.value || !local.value || *global.value <= 0 || *local.value <= 0 || global.node == nullptr) return;
    const auto rep = torchtitan::int_option(*doc, "parallelism", "data_parallel_replicate_degree", 1);
    const auto shard = torchtitan::int_option(*doc, "parallelism", "data_parallel_shard_degree", -1);
    if (!rep.value || !shard.value || *rep.value < 1) return;
    std::int64_t dp_shard = *shard.value;
    std::string shard_text = std::to_string(dp_shard);
    if (dp_shard == -1) {
      // The leftover ranks: world // (dp_replicate * cp * tp * pp) (parallel_dims.py:45-47); needs the world size.
      const auto world = l.world_size();
      if (!world) return;
      std::int64_t others = *rep.value;
      for (const char* k : {"context_parallel_degree", "tensor_parallel_degree", "pipeline_parallel_degree"}) {
        const auto d = torchtitan::int_option(*doc, "parallelism", k, 1);
        if (!d.value || *d.value < 1) return;
        others *= *d.value;
      }
      dp_shard = *world / others;
      if (dp_shard < 1 || dp_shard * others != *world) return;  // TT001's finding
      shard_text = std::to_string(dp_shard) + " (the -1 leftover of world size " + std::to_string(*world) + ")";
    } else if (dp_shard < 1) {
      return;
    }
    const std::int64_t batch_degree = *rep.value * dp_shard;
    const std::int64_t unit = *local.value * batch_degree;
    if (*global.value % unit == 0) return;
    ctx.report(doc->path(), global.node->region,
               "`global_batch_size = " + std::to_string(*global.value) +
                   "` is not a multiple of local_batch_size * data-parallel degree = " + std::to_string(*local.value) +
                   " * (dp_replicate " + std::to_string(*rep.value) + " * dp_shard " + shard_text +
                   ") = " + std::to_string(unit) +
                   ": torchtitan asserts \"global batch size must be multiple of local batch size times data-parallel "
                   "degree\" at start-up, after building the model in every rank. Use a multiple of " +
                   std::to_string(unit) + " (the quotient is the gradient accumulation steps), or -1 for one step.",
               related_to(written_site(l, model::keys::kWorldSize), "The world size is set here."));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_global_batch_not_divisible() {
  return std::make_unique<GlobalBatchNotDivisible>();
}

}  // namespace lint::rules
