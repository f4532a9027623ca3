// QNT004: Unsloth in a launch that uses DeepSpeed ZeRO-3, where the front end rejects it.
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

class SingleGpuLibraryUnderMultiProcess final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || ds.zero_stage != 3) return;
    const model::QuantizationFacts& q = model::quantization_facts(l);
    for (const model::Site& s : q.unsloth) {
      // LLaMA-Factory's check (its YAML key, or the flag given to its entry point); see the rule's page.
      if (s.what != "use_unsloth: true" && !s.what.starts_with("--use_unsloth")) continue;
      ctx.report(s.path, s.region,
                 "`" + s.what +
                     "` with DeepSpeed ZeRO-3: LLaMA-Factory raises ValueError(\"Unsloth is "
                     "incompatible with DeepSpeed ZeRO-3.\") before training starts. Use ZeRO-2, or drop Unsloth.",
                 related_site(ds.stage_site, "ZeRO stage 3 is set here."));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_single_gpu_library_under_multi_process() {
  return std::make_unique<SingleGpuLibraryUnderMultiProcess>();
}

}  // namespace lint::rules
