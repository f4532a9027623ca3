// HF017: `trainer.save_model()` under DeepSpeed ZeRO-3 without `stage3_gather_16bit_weights_on_model_save`: the
// Trainer cannot gather the weights, saves an empty state dict, removes it and writes a DeepSpeed checkpoint instead
// (transformers 5.17.0 src/transformers/trainer.py:3956-3979; accelerate 1.15.0 accelerator.py:4071-4083).
#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/query.hpp"
#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

/// What the launch says about gathering 16-bit weights at save: true / false when known, nullopt when not (the key is
/// not statically known, or "auto" is filled from an accelerate config that is not in the launch).
struct Gather {
  std::optional<bool> on;
  std::string path;  ///< where it is decided (for the related location); empty for a default
  source::Region region;
  std::string spelled;
};

const parse::Node* accelerate_deepspeed_section(const model::Launch& l, const model::Document** doc) {
  const model::Document* config = model::query::accelerate_config(l);
  if (config == nullptr || config->root_map() == nullptr) return nullptr;
  const parse::Node* section = config->root_map()->find("deepspeed_config");
  if (section == nullptr || !section->is_map()) return nullptr;
  *doc = config;
  return section;
}

bool launch_sets_env(const model::Launch& l, std::string_view name) {
  return l.command && l.command->env.contains(std::string(name));
}

/// accelerate's `zero3_save_16bit_model`, which fills an "auto" in the JSON and builds the JSON when there is none.
Gather accelerate_flag(const model::Launch& l) {
  if (launch_sets_env(l, "ACCELERATE_DEEPSPEED_ZERO3_SAVE_16BIT_MODEL")) return {};
  const model::Document* doc = nullptr;
  const parse::Node* section = accelerate_deepspeed_section(l, &doc);
  if (section != nullptr) {
    const parse::Node* v = section->find("zero3_save_16bit_model");
    if (v == nullptr) return {false, doc->path(), section->region, "no `zero3_save_16bit_model`"};
    if (v->kind == parse::NodeKind::Bool) return {v->boolean, doc->path(), v->region, "zero3_save_16bit_model"};
    return {};
  }
  // Without accelerate (torchrun / deepspeed / python), the plugin the Trainer builds takes the environment default
  // (false); under `accelerate launch` without a config in the launch, the user's default config decides.
  if (l.launcher == model::Launcher::AccelerateLaunch) return {};
  return {false, "", {}, "accelerate's default"};
}

Gather gather(const model::Launch& l, const model::DeepSpeedState& ds) {
  if (ds.config != nullptr && ds.config->root_map() != nullptr) {
    const parse::Node* zo = ds.config->root_map()->find("zero_optimization");
    if (zo == nullptr || !zo->is_map()) return {};
    const parse::Node* v = zo->find("stage3_gather_16bit_weights_on_model_save");
    if (v == nullptr) return {false, ds.config->path(), zo->region, "zero_optimization"};
    if (v->kind == parse::NodeKind::Bool)
      return {v->boolean, ds.config->path(), v->region, "stage3_gather_16bit_weights_on_model_save"};
    if (v->kind == parse::NodeKind::String && v->text == "auto") return accelerate_flag(l);
    return {};
  }
  // No JSON: accelerate builds it from its config section.
  const model::Document* doc = nullptr;
  if (accelerate_deepspeed_section(l, &doc) == nullptr) return {};
  return accelerate_flag(l);
}

/// Where the final `save_model()` happens in a launch that saves a full model: the script's own call, or a
/// LLaMA-Factory / axolotl config that fine-tunes every weight (their trainers call `save_model()` at the end).
struct SaveSite {
  std::string path;
  source::Region region;
  std::string who;  ///< `trainer.save_model()`, `LLaMA-Factory`, `axolotl`
};

std::optional<SaveSite> full_model_save(const model::Launch& l) {
  if (const model::Document* script = model::launch_script(l); script != nullptr && script->python) {
    const model::PyCall* save = trainer::trainer_save_model_call(*script->python);
    // A PEFT model under ZeRO-3 is saved from its trainable parameters alone (trainer.py:3962-3965).
    if (save != nullptr && !trainer::uses_peft(*script->python))
      return SaveSite{script->path(), save->callee_region, "`" + save->receiver + ".save_model()`"};
    if (save != nullptr) return std::nullopt;
    // LLaMA-Factory's entry script (`src/train.py`, the older `src/train_bash.py`) given its arguments as flags.
    if (model::is_llamafactory_script(*script->python)) {
      const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
      const model::ScriptFlag* ft = model::find_script_flag(flags, "finetuning_type");
      const model::ScriptFlag* train = model::find_script_flag(flags, "do_train");
      const bool trains = train != nullptr && (!train->value || train->value->text == "true" ||
                                               train->value->text == "True" || train->value->text == "1");
      if (ft != nullptr && ft->value && ft->value->known &&
          (ft->value->text == "full" || ft->value->text == "freeze") && trains)
        return SaveSite{ft->path, ft->region, "LLaMA-Factory's final `trainer.save_model()`"};
    }
  }
  for (const model::Document* d : l.documents) {
    const parse::Node* root = d->root_map();
    if (root == nullptr) continue;
    if (d->kind == model::DocKind::LlamaFactoryConfig) {
      // LLaMA-Factory's default `finetuning_type` is lora (adapters only); full and freeze save the whole model.
      const parse::Node* ft = root->find("finetuning_type");
      const parse::Node* train = root->find("do_train");
      if (ft == nullptr || ft->kind != parse::NodeKind::String || (ft->text != "full" && ft->text != "freeze"))
        continue;
      if (train == nullptr || train->kind != parse::NodeKind::Bool || !train->boolean) continue;
      return SaveSite{d->path(), ft->region, "LLaMA-Factory's final `trainer.save_model()`"};
    }
    if (d->kind == model::DocKind::AxolotlConfig) {
      const parse::Node* adapter = root->find("adapter");
      if (adapter != nullptr && !(adapter->kind == parse::NodeKind::Null ||
                                  (adapter->kind == parse::NodeKind::String && adapter->text.empty())))
        continue;
      const parse::Node* ds = root->find("deepspeed");
      if (ds == nullptr) continue;
      return SaveSite{d->path(), ds->region, "axolotl's final `trainer.save_model()`"};
    }
  }
  return std::nullopt;
}

class Zero3SaveModelWithout16bitWeights final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || ds.zero_stage != 3 || ds.reader != model::DeepSpeedReader::Integration) return;
    const std::optional<SaveSite> save = full_model_save(l);
    if (!save) return;
    const Gather g = gather(l, ds);
    if (!g.on || *g.on) return;
    std::vector<rule::RelatedLocation> related;
    if (!g.path.empty()) related.push_back({g.path, g.region, "The 16-bit gather at save is not turned on here."});
    ctx.report(save->path, save->region,
               save->who +
                   " under DeepSpeed ZeRO-3 without `stage3_gather_16bit_weights_on_model_save: true` "
                   "(accelerate: `zero3_save_16bit_model: true`): the Trainer cannot gather the partitioned weights, "
                   "so it writes no `model.safetensors`, only a DeepSpeed checkpoint that `from_pretrained` cannot "
                   "load until `zero_to_fp32.py` converts it (transformers 5.17.0 "
                   "`src/transformers/trainer.py:3956-3979`). Set `\"stage3_gather_16bit_weights_on_model_save\": "
                   "true` in `zero_optimization`.",
               std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_zero3_save_model_without_16bit_weights() {
  return std::make_unique<Zero3SaveModelWithout16bitWeights>();
}

}  // namespace lint::rules
