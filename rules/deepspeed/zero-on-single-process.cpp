// DS011: ZeRO partitioning with a single process and no offload.
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

class ZeroOnSingleProcess final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file) return;
    const auto world = l.world_size();
    if (!world || *world != 1) return;
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || !ds.zero_stage || *ds.zero_stage < 1 || *ds.zero_stage > 3 || !ds.stage_site) return;
    if (ds.offload != std::optional<bool>(false)) return;  // offload still saves GPU memory on one GPU
    // A JSON that a larger launch shares (Qwen's `ds_config_zero2.json`, named by its torchrun scripts and by its
    // one-GPU script) serves that launch; the one-GPU launch reuses it.
    if (model::query::shared_with_larger_launch(l, ds.stage_site->path)) return;
    const model::Effective* ws = l.get(model::keys::kWorldSize);
    ctx.report(ds.stage_site->path, ds.stage_site->region,
               "ZeRO stage " + std::to_string(*ds.zero_stage) +
                   " with a single process: ZeRO partitions optimizer "
                   "states" +
                   std::string(*ds.zero_stage >= 2 ? ", gradients" : "") +
                   std::string(*ds.zero_stage == 3 ? " and parameters" : "") +
                   " across the data-parallel processes, so with one process nothing is partitioned and no memory "
                   "is saved; only ZeRO's bucketing and copies remain. Launch more processes, or use offload "
                   "(`offload_optimizer` / `offload_param`) to save memory on one GPU.",
               related_to(ws != nullptr ? ws->decided_by : nullptr, "The launch starts one process here."));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_zero_on_single_process() {
  return std::make_unique<ZeroOnSingleProcess>();
}

}  // namespace lint::rules
