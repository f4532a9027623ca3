// HF002: `fsdp_config` given to the Trainer while `fsdp` is off: the config is never read.
#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

class FsdpConfigWithoutFsdp final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    for (const trainer::TrainerArgs& t : trainer::trainer_args(l)) {
      if (!t.has_fsdp_config || !t.complete) continue;
      if (t.has_fsdp && (!t.fsdp_known || t.fsdp_on)) continue;
      ctx.report(t.path, t.fsdp_config_region,
                 "`fsdp_config` is set but `fsdp` is " + std::string(t.has_fsdp ? "off" : "not set") + " in " +
                     t.spelled +
                     ": TrainingArguments reads fsdp_config only when fsdp is on (`_process_fsdp_args` returns at "
                     "`if not self.fsdp`), so this config is never opened and none of its settings apply, even "
                     "when the launcher turns FSDP on. Set `fsdp=True` (or drop fsdp_config).");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_fsdp_config_without_fsdp() {
  return std::make_unique<FsdpConfigWithoutFsdp>();
}

}  // namespace lint::rules
