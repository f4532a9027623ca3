// HF014: `save_only_model=True` in a Trainer launch whose FSDP plugin saves SHARDED_STATE_DICT, or together with
// `load_best_model_at_end=True` under DeepSpeed or FSDP (transformers 5.17.0 src/transformers/trainer.py:857-864).
#include "lint/model/deepspeed_facts.hpp"
#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

/// Where `save_only_model` is set true: a TrainingArguments / TRL config call in the script, or the command line
/// parsed by HfArgumentParser / TrlParser (`--save_only_model`, `--save_only_model true`).
struct SaveOnlyModel {
  std::string path;
  source::Region region;
};

/// Where a boolean Trainer argument (`save_only_model`, `load_best_model_at_end`) is set true.
std::optional<SaveOnlyModel> true_argument(const model::Launch& l, std::string_view name) {
  const model::Document* script = model::launch_script(l);
  if (script == nullptr) return std::nullopt;
  bool parser = false;
  for (const model::PyCall& c : script->python->calls) {
    if (c.name == "HfArgumentParser" || c.name == "TrlParser") parser = true;
    if (!trainer::is_trainer_args_name(c.name)) continue;
    if (const model::PyArg* a = c.keyword(name);
        a != nullptr && a->value.kind == model::ValueKind::Bool && a->value.boolean)
      return SaveOnlyModel{script->path(), a->region};
  }
  if (!parser || l.command_document == nullptr) return std::nullopt;
  const auto& flags = model::script_flags(l);
  const model::ScriptFlag* f = model::find_script_flag(flags, name);
  if (f == nullptr) return std::nullopt;
  if (f->value) {  // HfArgumentParser's string_to_bool
    const std::string& v = f->value->text;
    if (v != "true" && v != "True" && v != "yes" && v != "1" && v != "y" && v != "t") return std::nullopt;
  }
  return SaveOnlyModel{f->path, f->region};
}

std::optional<SaveOnlyModel> save_only_model(const model::Launch& l) {
  return true_argument(l, "save_only_model");
}

class SaveOnlyModelWithShardedStateDict final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const bool deepspeed = model::deepspeed_state(l).on;
    if (!l.fsdp_enabled() && !deepspeed) return;
    const auto som = save_only_model(l);
    if (!som) return;
    if (const auto best = true_argument(l, "load_best_model_at_end")) {
      ctx.report(som->path, som->region,
                 std::string("`save_only_model` with `load_best_model_at_end` under ") +
                     (deepspeed ? "DeepSpeed" : "FSDP") + ": the best checkpoint is reloaded into the " +
                     (deepspeed ? "DeepSpeed engine" : "FSDP-wrapped model") +
                     ", which needs its own checkpoint format, and a `save_only_model` checkpoint holds the model "
                     "weights only, so the Trainer raises ValueError when it is constructed (transformers 5.17.0 "
                     "`src/transformers/trainer.py:857-864`; huggingface/transformers#28866). Drop one of the two.",
                 {rule::RelatedLocation{best->path, best->region, "load_best_model_at_end is turned on here."}});
      return;
    }
    if (!l.fsdp_enabled()) return;
    const model::Effective* sdt = l.get(model::keys::kStateDictType);
    if (sdt == nullptr || sdt->value.kind != model::ValueKind::String || sdt->value.text != "SHARDED_STATE_DICT")
      return;
    std::vector<rule::RelatedLocation> related = related_to(sdt->decided_by, "The state dict type is set here.");
    std::string why = "`state_dict_type` is SHARDED_STATE_DICT";
    if (related.empty()) {
      // A default: accelerate's FSDP2 default is SHARDED_STATE_DICT (FSDP1's is FULL_STATE_DICT).
      why =
          "the FSDP plugin's `state_dict_type` is SHARDED_STATE_DICT, accelerate's default under FSDP2 (accelerate "
          "1.15.0 `src/accelerate/utils/dataclasses.py:2047-2050`)";
      const model::Effective* v = l.get(model::keys::kFsdpVersion);
      related = related_to(v != nullptr ? v->decided_by : nullptr, "FSDP2 is chosen here.");
    }
    ctx.report(som->path, som->region,
               "`save_only_model` with FSDP while " + why +
                   ": the Trainer raises ValueError(\"save_only_model option is not compatible with FSDP state dict "
                   "type 'SHARDED_STATE_DICT'\") when it is constructed (transformers 5.17.0 "
                   "`src/transformers/trainer.py:876-880`). Set `fsdp_state_dict_type: FULL_STATE_DICT` (a checkpoint "
                   "that `from_pretrained` can load), or drop `save_only_model` to save sharded checkpoints with the "
                   "optimizer state.",
               std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_save_only_model_with_sharded_state_dict() {
  return std::make_unique<SaveOnlyModelWithShardedStateDict>();
}

}  // namespace lint::rules
