// HF005: TrainingArguments with a ZeRO-3 DeepSpeed config created after the model's from_pretrained.
#include <algorithm>

#include "lint/model/deepspeed_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class Zero3AfterFromPretrained final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* script = model::launch_script(l);
    if (script == nullptr) return;
    const model::DeepSpeedState ds = model::deepspeed_state(l);
    if (!ds.on || ds.zero_stage != 3) return;
    const auto& calls = script->python->calls;
    for (const model::PyCall& args : calls) {
      if (!model::is_training_arguments_class(args.name) || args.keyword("deepspeed") == nullptr) continue;
      for (const model::PyCall& load : calls) {
        if (load.name != "from_pretrained" || load.function != args.function || load.order >= args.order) continue;
        if (load.callee.find("Tokenizer") != std::string::npos || load.callee.find("Config") != std::string::npos ||
            load.callee.find("Processor") != std::string::npos)
          continue;
        // An HfDeepSpeedConfig created (and kept alive) before the load registers the ZeRO-3 config in the global
        // weakref that from_pretrained's is_deepspeed_zero3_enabled() reads (transformers 5.17.0
        // `integrations/deepspeed.py:279-283`), so zero.Init is on without TrainingArguments.
        const bool hf_ds_config = std::any_of(calls.begin(), calls.end(), [&load](const model::PyCall& c) {
          return c.name == "HfDeepSpeedConfig" && c.function == load.function && c.order < load.order;
        });
        if (hf_ds_config) continue;
        ctx.report(script->path(), load.region,
                   "The model is loaded before `" + args.name +
                       "(deepspeed=...)` with ZeRO-3 is created: "
                       "`from_pretrained` uses `deepspeed.zero.Init` only when the DeepSpeed config already exists, so "
                       "every rank materialises the whole model first (transformers 5.17.0 `training_args.py:721-723`: "
                       "\"instantiate your model *after* initializing `TrainingArguments`, otherwise ZeRO won't be "
                       "applied\"). Create the arguments first.",
                   {{script->path(), args.callee_region, "The DeepSpeed arguments are created here."}});
        break;
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_zero3_after_from_pretrained() {
  return std::make_unique<Zero3AfterFromPretrained>();
}

}  // namespace lint::rules
