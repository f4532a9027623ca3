// HF018: the Trainer's `optim` (an 8-bit, paged, Adafactor, Lion... optimizer) in a launch whose DeepSpeed JSON has
// an `optimizer` section: the HF integration then builds DeepSpeed's optimizer from the JSON and never creates the
// Trainer's (transformers 5.17.0 src/transformers/integrations/deepspeed.py, deepspeed_optim_sched: `if "optimizer"
// in config: optimizer = DummyOptim(...)`).
#include <algorithm>
#include <array>
#include <string_view>

#include "lint/model/deepspeed_facts.hpp"
#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

/// The Trainer's AdamW variants: the same update as DeepSpeed's AdamW, so nothing the user chose is lost.
bool is_plain_adamw(std::string_view optim) {
  constexpr std::array<std::string_view, 6> kPlain = {"adamw_torch",      "adamw_torch_fused", "adamw_hf",
                                                      "adamw_apex_fused", "adamw_torch_xla",   "adamw_torch_npu_fused"};
  for (std::string_view p : kPlain) {
    if (optim == p) return true;
  }
  return false;
}

struct OptimSite {
  std::string value;
  std::string path;
  source::Region region;
};

/// Where the launch sets the Trainer's optimizer: `optim=` of a TrainingArguments / TRL config call, `--optim` on
/// the command line of a script that parses it, LLaMA-Factory's `optim:`, axolotl's `optimizer:`.
std::optional<OptimSite> trainer_optim(const model::Launch& l) {
  if (const model::Document* script = model::launch_script(l); script != nullptr && script->python) {
    for (const model::PyCall& c : script->python->calls) {
      if (!model::is_training_arguments_class(c.name)) continue;
      if (const model::PyArg* a = c.keyword("optim"); a != nullptr && a->value.kind == model::ValueKind::String)
        return OptimSite{a->value.text, script->path(), a->region};
    }
    // Flags reach `optim` only through HfArgumentParser / TrlParser (or LLaMA-Factory's entry script).
    if (trainer::parses_trainer_flags(*script->python)) {
      const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
      if (const model::ScriptFlag* f = model::find_script_flag(flags, "optim");
          f != nullptr && f->value && f->value->known)
        return OptimSite{f->value->text, f->path, f->region};
    }
  }
  for (const model::Document* d : l.documents) {
    const parse::Node* root = d->root_map();
    if (root == nullptr) continue;
    const char* key = d->kind == model::DocKind::LlamaFactoryConfig ? "optim"
                      : d->kind == model::DocKind::AxolotlConfig    ? "optimizer"
                                                                    : nullptr;
    if (key == nullptr) continue;
    if (const parse::Node* v = root->find(key); v != nullptr && v->kind == parse::NodeKind::String)
      return OptimSite{v->text, d->path(), v->region};
  }
  return std::nullopt;
}

class TrainerOptimizerReplacedByDeepspeed final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || ds.reader != model::DeepSpeedReader::Integration || ds.config == nullptr) return;
    const parse::Node* root = ds.config->root_map();
    if (root == nullptr) return;
    const parse::Node* section = root->find("optimizer");
    if (section == nullptr || !section->is_map()) return;
    const std::optional<OptimSite> optim = trainer_optim(l);
    if (!optim || optim->value.empty() || is_plain_adamw(optim->value)) return;
    std::string ds_type = "the one it names";
    if (const parse::Node* t = section->find("type"); t != nullptr && t->kind == parse::NodeKind::String)
      ds_type = "`" + t->text + "`";
    ctx.report(optim->path, optim->region,
               "The Trainer's optimizer `" + optim->value +
                   "` is never created: the DeepSpeed config has an `optimizer` section, so the HF integration has "
                   "DeepSpeed build " +
                   ds_type +
                   " from it instead (transformers 5.17.0 `src/transformers/integrations/deepspeed.py`, "
                   "`deepspeed_optim_sched`), with its own memory and update rule. Remove the `optimizer` section "
                   "from the DeepSpeed config to train with `" +
                   optim->value + "`, or drop `" + optim->value + "`.",
               {rule::RelatedLocation{ds.config->path(), section->region, "DeepSpeed's optimizer is defined here."}});
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_trainer_optimizer_replaced_by_deepspeed() {
  return std::make_unique<TrainerOptimizerReplacedByDeepspeed>();
}

}  // namespace lint::rules
