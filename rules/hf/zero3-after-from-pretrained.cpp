// HF005: the model's from_pretrained before the call that registers a ZeRO-3 config: TrainingArguments(deepspeed=...),
// or Accelerator() under accelerate's ZeRO-3 with zero3_init_flag: true.
#include <algorithm>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/query.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// The first model `from_pretrained` in the same function before `anchor` (tokenizer, config and processor loads
/// are not models) that no call registering the ZeRO-3 config precedes, or nullptr. `registers` names those calls:
/// an HfDeepSpeedConfig created (and kept alive) before the load registers the config in the global weakref that
/// from_pretrained's is_deepspeed_zero3_enabled() reads (transformers 5.17.0 `integrations/deepspeed.py:279-283`).
template <typename Registers>
const model::PyCall* model_loaded_before(const std::vector<model::PyCall>& calls, const model::PyCall& anchor,
                                         Registers registers) {
  for (const model::PyCall& load : calls) {
    if (load.name != "from_pretrained" || load.function != anchor.function || load.order >= anchor.order) continue;
    if (load.callee.find("Tokenizer") != std::string::npos || load.callee.find("Config") != std::string::npos ||
        load.callee.find("Processor") != std::string::npos)
      continue;
    const bool registered = std::any_of(calls.begin(), calls.end(), [&](const model::PyCall& c) {
      return registers(c) && c.function == load.function && c.order < load.order;
    });
    if (!registered) return &load;
  }
  return nullptr;
}

class Zero3AfterFromPretrained final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* script = model::launch_script(l);
    if (script == nullptr) return;
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || ds.zero_stage != 3) return;
    const auto& calls = script->python->calls;
    for (const model::PyCall& args : calls) {
      if (!model::is_training_arguments_class(args.name) || args.keyword("deepspeed") == nullptr) continue;
      const model::PyCall* load =
          model_loaded_before(calls, args, [](const model::PyCall& c) { return c.name == "HfDeepSpeedConfig"; });
      if (load == nullptr) continue;
      ctx.report(script->path(), load->region,
                 "The model is loaded before `" + args.name +
                     "(deepspeed=...)` with ZeRO-3 is created: "
                     "`from_pretrained` uses `deepspeed.zero.Init` only when the DeepSpeed config already exists, so "
                     "every rank materialises the whole model first (transformers 5.17.0 `training_args.py:721-723`: "
                     "\"instantiate your model *after* initializing `TrainingArguments`, otherwise ZeRO won't be "
                     "applied\"). Create the arguments first.",
                 {{script->path(), args.callee_region, "The DeepSpeed arguments are created here."}});
    }
    check_accelerator(l, *script, ctx);
  }

 private:
  /// A custom loop under accelerate's ZeRO-3 with `zero3_init_flag: true`: accelerate registers the ZeRO-3 config
  /// that `from_pretrained` reads when the Accelerator is created (accelerate v1.14.0
  /// `src/accelerate/utils/dataclasses.py:1457-1486`, `select()` `:1552-1561`), so a model loaded before
  /// `Accelerator()` is not built inside `deepspeed.zero.Init`.
  static void check_accelerator(const model::Launch& l, const model::Document& script, rule::RuleContext& ctx) {
    const model::Document* config = model::query::accelerate_config(l);
    const parse::Node* root = config != nullptr ? config->root_map() : nullptr;
    const parse::Node* section = root != nullptr ? root->find("deepspeed_config") : nullptr;
    const parse::Node* flag = section != nullptr && section->is_map() ? section->find("zero3_init_flag") : nullptr;
    if (flag == nullptr || flag->kind != parse::NodeKind::Bool || !flag->boolean) return;
    const auto& calls = script.python->calls;
    for (const model::PyCall& acc : calls) {
      if (acc.name != "Accelerator") continue;
      const model::PyCall* load = model_loaded_before(calls, acc, [](const model::PyCall& c) {
        return c.name == "HfDeepSpeedConfig" || model::is_training_arguments_class(c.name);
      });
      if (load == nullptr) continue;
      ctx.report(script.path(), load->region,
                 "The model is loaded before `Accelerator()` under ZeRO-3 with `zero3_init_flag: true`: accelerate "
                 "registers the ZeRO-3 config that `from_pretrained` reads for `deepspeed.zero.Init` only when the "
                 "Accelerator is created (accelerate v1.14.0 `src/accelerate/utils/dataclasses.py:1457-1486`), so "
                 "every rank materialises the whole model first. Create the Accelerator before loading the model.",
                 {{script.path(), acc.callee_region, "The Accelerator is created here."}});
      return;
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_zero3_after_from_pretrained() {
  return std::make_unique<Zero3AfterFromPretrained>();
}

}  // namespace lint::rules
