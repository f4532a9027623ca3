// PL003: DeepSpeed config keys Lightning's DeepSpeedStrategy sets itself.
#include "lint/model/deepspeed_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

void check_key(const std::string& path, const source::Region& where, std::string_view key, rule::RuleContext& ctx) {
  if (key == "gradient_accumulation_steps") {
    ctx.report(path, where,
               "`gradient_accumulation_steps` in the config of Lightning's DeepSpeedStrategy: Lightning raises "
               "MisconfigurationException(\"Do not set `gradient_accumulation_steps` in the DeepSpeed config as this "
               "will be set with the `accumulate_grad_batches` argument passed via the Lightning Trainer.\") when "
               "fit() starts (Lightning 2.6.5 `src/lightning/pytorch/strategies/deepspeed.py:923-927`). Use "
               "`Trainer(accumulate_grad_batches=...)`.");
  } else if (key == "train_batch_size") {
    ctx.report(
        path, where,
        "`train_batch_size` in the config of Lightning's DeepSpeedStrategy: Lightning sets "
        "`gradient_accumulation_steps` from `accumulate_grad_batches` and the micro batch from the "
        "dataloader (Lightning 2.6.5 `src/lightning/pytorch/strategies/deepspeed.py:917-933`), and DeepSpeed asserts "
        "`train_batch_size == micro * accumulation * world size` at initialization. Leave it out.",
        {}, rule::Severity::Warning);
  }
}

class DeepspeedKeysLightningOwns final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* script = model::launch_script(l);
    if (script == nullptr) return;
    bool lightning = false;
    for (const model::PyCall& c : script->python->calls) {
      if (c.name != "DeepSpeedStrategy") continue;
      lightning = true;
      const model::PyArg* cfg = c.keyword("config");
      if (cfg == nullptr || cfg->value.kind != model::ValueKind::Dict) continue;
      for (const model::Field& f : cfg->value.fields) check_key(script->path(), f.value.region, f.key, ctx);
    }
    if (!lightning || model::deepspeed_state(l).reader != model::DeepSpeedReader::Lightning) return;
    for (const model::Document* d : l.documents) {
      // Also a script linted alone: its launch holds the JSON its DeepSpeedStrategy(config=) names.
      if (d->kind != model::DocKind::DeepSpeedConfig || d->root_map() == nullptr) continue;
      for (const parse::Entry& e : d->root_map()->entries) check_key(d->path(), e.key.region, e.key.text, ctx);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_keys_lightning_owns() {
  return std::make_unique<DeepspeedKeysLightningOwns>();
}

}  // namespace lint::rules
