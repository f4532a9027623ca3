// ACC015: `accelerate launch` with an accelerate config whose `deepspeed_config` section sets DeepSpeed values (or
// whose top-level `mixed_precision` is used), while the script hands DeepSpeed a JSON of its own (the Trainer's
// `deepspeed=` / `--deepspeed`, LLaMA-Factory's or axolotl's `deepspeed:`, `DeepSpeedPlugin(hf_ds_config=...)`).
// accelerate launch exports the section's keys (and `mixed_precision` when it comes from the config) as
// ACCELERATE_CONFIG_DS_FIELDS (accelerate v1.14.0 src/accelerate/commands/launch.py:1385-1391,
// src/accelerate/utils/launch.py:564); a DeepSpeedPlugin built from a JSON runs `_deepspeed_config_checks`, which
// raises ValueError when any of them is one the JSON replaces (src/accelerate/utils/dataclasses.py:1266-1277,
// :1505-1530). TrainingArguments builds that plugin from its `deepspeed` argument (transformers 5.17.0
// training_args.py, `DeepSpeedPlugin(hf_ds_config=self.hf_deepspeed_config)`). Oracle cases acc15-*.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/query.hpp"
#include "rules/accelerate/deepspeed_replaced_keys.hpp"
#include "rules/hf/trainer_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

struct JsonSite {
  std::string path;
  source::Region region;
  std::string what;
};

/// Where the script gives DeepSpeed a JSON (or dict) of its own.
std::optional<JsonSite> script_json(const model::Launch& l) {
  if (const model::Document* script = model::launch_script(l); script != nullptr && script->python) {
    for (const model::PyCall& c : script->python->calls) {
      if (model::is_training_arguments_class(c.name)) {
        // `deepspeed=args.deepspeed` may be None at run time: only a path or a dict written here counts.
        if (const model::PyArg* a = c.keyword("deepspeed");
            a != nullptr && ((a->value.kind == model::ValueKind::String && !a->value.text.empty()) ||
                             a->value.kind == model::ValueKind::Dict))
          return JsonSite{script->path(), a->region, "`" + c.name + "(deepspeed=...)`"};
      }
      const std::string_view name = c.name;
      if (name == "DeepSpeedPlugin" || name.ends_with(".DeepSpeedPlugin")) {
        // An explicit hf_ds_config= is the script's own DeepSpeed config, whatever expression gives it.
        if (const model::PyArg* a = c.keyword("hf_ds_config"); a != nullptr && a->value.kind != model::ValueKind::None)
          return JsonSite{script->path(), a->region, "`DeepSpeedPlugin(hf_ds_config=...)`"};
      }
    }
    if (trainer::parses_trainer_flags(*script->python)) {
      const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
      if (const model::ScriptFlag* f = model::find_script_flag(flags, "deepspeed");
          f != nullptr && f->value && !(f->value->known && f->value->text.empty()))
        return JsonSite{f->path, f->region, "the Trainer's `--deepspeed`"};
    }
  }
  for (const model::Document* d : l.documents) {
    if (d->kind != model::DocKind::LlamaFactoryConfig && d->kind != model::DocKind::AxolotlConfig) continue;
    const parse::Node* root = d->root_map();
    if (root == nullptr) continue;
    if (const parse::Entry* e = root->find_entry("deepspeed");
        e != nullptr && e->value.kind == parse::NodeKind::String && !e->value.text.empty())
      return JsonSite{
          d->path(), e->key.region,
          d->kind == model::DocKind::LlamaFactoryConfig ? "LLaMA-Factory's `deepspeed:`" : "axolotl's `deepspeed:`"};
  }
  return std::nullopt;
}

class DeepspeedSectionWithScriptJson final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch || !l.command) return;
    const model::Document* config = model::query::accelerate_config(l);
    if (config == nullptr) return;
    const parse::Node* root = config->root_map();
    if (root == nullptr) return;
    const parse::Node* dt = root->find("distributed_type");
    if (dt == nullptr || dt->kind != parse::NodeKind::String || dt->text != "DEEPSPEED") return;
    // `--use_deepspeed` is implied by the config; `--cpu` takes another launcher.
    if (parse::find_flag(*l.command, "cpu") != nullptr) return;
    const parse::Node* section = root->find("deepspeed_config");
    // A deepspeed_config_file next to these keys is ACC006's (the same ValueError without any script JSON).
    if (section != nullptr && section->is_map()) {
      if (const parse::Entry* f = section->find_entry("deepspeed_config_file");
          f != nullptr && f->value.kind != parse::NodeKind::Null)
        return;
    }
    std::vector<const parse::Entry*> fields;
    if (section != nullptr && section->is_map()) {
      for (const parse::Entry& e : section->entries) {
        if (std::find(kDeepSpeedJsonReplacedKeys.begin(), kDeepSpeedJsonReplacedKeys.end(), e.key.text) !=
            kDeepSpeedJsonReplacedKeys.end())
          fields.push_back(&e);
      }
    }
    // mixed_precision counts when the config supplies it (launch.py:1281-1286): not when the command line does.
    const parse::Entry* mp = root->find_entry("mixed_precision");
    if (mp != nullptr && (mp->value.kind == parse::NodeKind::Null || parse::find_flag(*l.command, "mixed_precision")))
      mp = nullptr;
    if (fields.empty() && mp == nullptr) return;
    const std::optional<JsonSite> json = script_json(l);
    if (!json) return;
    std::string names;
    for (const parse::Entry* e : fields) names += (names.empty() ? "`" : ", `") + e->key.text + "`";
    if (mp != nullptr)
      names += (names.empty() ? "the top-level `" : " and the top-level `") + std::string("mixed_precision`");
    const parse::Entry* at = fields.empty() ? mp : fields.front();
    ctx.report(config->path(), at->key.region,
               "This accelerate config sets " + names + " while " + json->what +
                   " gives DeepSpeed a JSON of its own: `accelerate launch` passes these keys to the processes, and "
                   "the DeepSpeedPlugin built from the JSON raises ValueError (\"When using `deepspeed_config_file`, "
                   "the following accelerate config variables will be ignored\"; accelerate v1.14.0 "
                   "`src/accelerate/utils/dataclasses.py:1505-1530`). Keep one source: remove them from the config "
                   "(`distributed_type: DEEPSPEED` alone, or `deepspeed_config_file` naming the same JSON) and set the "
                   "values in the JSON, or drop the script's JSON and let the config decide.",
               {rule::RelatedLocation{json->path, json->region, "The script's DeepSpeed JSON is given here."}});
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_section_with_script_json() {
  return std::make_unique<DeepspeedSectionWithScriptJson>();
}

}  // namespace lint::rules
