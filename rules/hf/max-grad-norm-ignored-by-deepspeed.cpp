// HF019: the Trainer's `max_grad_norm` in a launch whose DeepSpeed JSON has no `gradient_clipping`: under DeepSpeed
// only the engine clips (accelerate's `clip_grad_norm_` returns without clipping, accelerate v1.14.0
// src/accelerate/accelerator.py `clip_grad_norm_`), the HF integration writes `max_grad_norm` into the config only
// where it says "auto" (transformers 5.17.0 src/transformers/integrations/deepspeed.py:133-181, `fill_match`), and
// DeepSpeed falls back to its own default: 1.0 from DeepSpeed 0.19.3 (deepspeedai/DeepSpeed#8068; v0.19.5
// deepspeed/runtime/constants.py:254-261), 0.0 (no clipping) before.
#include <string>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/versions.hpp"
#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

struct NormSite {
  double value = 0;
  std::string text;
  std::string path;
  source::Region region;
};

/// Where the launch sets the Trainer's `max_grad_norm` itself (its default, 1.0, is not reported): `max_grad_norm=`
/// of a TrainingArguments / TRL config call, `--max_grad_norm` for a script that parses its flags into them, or the
/// key of a LLaMA-Factory / axolotl config.
std::optional<NormSite> trainer_max_grad_norm(const model::Launch& l) {
  if (const model::Document* script = model::launch_script(l); script != nullptr && script->python) {
    for (const model::PyCall& c : script->python->calls) {
      if (!model::is_training_arguments_class(c.name)) continue;
      const model::PyArg* a = c.keyword("max_grad_norm");
      if (a == nullptr) continue;
      if (a->value.kind == model::ValueKind::Float)
        return NormSite{a->value.number, a->value.text, script->path(), a->region};
      if (a->value.kind == model::ValueKind::Int)
        return NormSite{static_cast<double>(a->value.integer), a->value.text, script->path(), a->region};
      return std::nullopt;
    }
    if (trainer::parses_trainer_flags(*script->python)) {
      const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
      if (const model::ScriptFlag* f = model::find_script_flag(flags, "max_grad_norm");
          f != nullptr && f->value && f->value->known) {
        if (const auto v = trainer::number_word(f->value->text))
          return NormSite{*v, f->value->text, f->path, f->region};
      }
    }
  }
  for (const model::Document* d : l.documents) {
    if (d->kind != model::DocKind::LlamaFactoryConfig && d->kind != model::DocKind::AxolotlConfig) continue;
    const parse::Node* root = d->root_map();
    if (root == nullptr) continue;
    if (const parse::Node* v = root->find("max_grad_norm");
        v != nullptr && (v->kind == parse::NodeKind::Int || v->kind == parse::NodeKind::Float))
      return NormSite{v->number, v->text, d->path(), v->region};
  }
  return std::nullopt;
}

class MaxGradNormIgnoredByDeepspeed final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || ds.reader != model::DeepSpeedReader::Integration || ds.config == nullptr) return;
    const parse::Node* root = ds.config->root_map();
    if (root == nullptr || root->find("gradient_clipping") != nullptr) return;
    const std::optional<NormSite> norm = trainer_max_grad_norm(l);
    if (!norm || !(norm->value > 0)) return;
    // DeepSpeed's default: 1.0 from 0.19.3 (deepspeedai/DeepSpeed#8068), 0.0 (no clipping) before.
    // 1.0 is lost only where DeepSpeed is known to be older: an unknown version may clip at 1.0 itself.
    const std::optional<bool> old = model::target_versions().older_than("deepspeed", model::Version{0, 19, 3});
    if (old != true && norm->value == 1.0) return;
    const std::string fallback = old == false ? "its default, 1.0 (DeepSpeed 0.19.3 and newer)"
                                 : old == true
                                     ? "its default, 0.0: no clipping (DeepSpeed before 0.19.3)"
                                     : "its default: 0.0, no clipping, before DeepSpeed 0.19.3 and 1.0 from it";
    ctx.report(
        norm->path, norm->region,
        "`max_grad_norm` " + norm->text +
            " is never applied: the DeepSpeed config has no `gradient_clipping`, and under DeepSpeed only the "
            "engine clips gradients (accelerate's `clip_grad_norm_` returns without clipping). The HF "
            "integration copies `max_grad_norm` into the config only where it reads \"auto\" (transformers "
            "5.17.0 `src/transformers/integrations/deepspeed.py:133-181`), so DeepSpeed clips by " +
            fallback + ". Add `\"gradient_clipping\": \"auto\"` to the DeepSpeed config.",
        {rule::RelatedLocation{ds.config->path(), root->region, "The DeepSpeed config without `gradient_clipping`."}});
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_max_grad_norm_ignored_by_deepspeed() {
  return std::make_unique<MaxGradNormIgnoredByDeepspeed>();
}

}  // namespace lint::rules
