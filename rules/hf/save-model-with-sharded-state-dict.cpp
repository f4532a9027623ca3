// HF016: `trainer.save_model()` in an FSDP launch whose plugin's state dict type is SHARDED_STATE_DICT: the Trainer
// writes the model only for FULL_STATE_DICT (transformers 5.17.0 src/transformers/trainer.py:3951-3955), so the
// final save writes no weights `from_pretrained` can load.
#include "lint/model/deepspeed_facts.hpp"
#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

class SaveModelWithShardedStateDict final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    const model::Document* script = model::launch_script(l);
    if (script == nullptr || !script->python) return;
    const model::Effective* sdt = l.get(model::keys::kStateDictType);
    if (sdt == nullptr || sdt->value.kind != model::ValueKind::String || sdt->value.text != "SHARDED_STATE_DICT")
      return;
    for (const model::PyCall& c : script->python->calls) {
      // The usual workaround switches the plugin to a full state dict before saving.
      if (c.name == "set_state_dict_type") return;
    }
    for (const model::PyAttributeAssignment& a : script->python->attribute_assignments) {
      if (a.attribute == "state_dict_type") return;
    }
    const model::PyCall* save = trainer::trainer_save_model_call(*script->python);
    if (save == nullptr) return;
    std::vector<rule::RelatedLocation> related = related_to(sdt->decided_by, "The state dict type is set here.");
    std::string why = "the FSDP plugin's `state_dict_type` is SHARDED_STATE_DICT";
    if (related.empty()) {
      why += ", accelerate's default under FSDP2 (accelerate 1.15.0 `src/accelerate/utils/dataclasses.py:2047-2050`)";
      const model::Effective* v = l.get(model::keys::kFsdpVersion);
      related = related_to(v != nullptr ? v->decided_by : nullptr, "FSDP2 is chosen here.");
    }
    ctx.report(
        script->path(), save->callee_region,
        "`" + save->receiver + ".save_model()` under FSDP while " + why +
            ": the Trainer writes the model only for FULL_STATE_DICT (transformers 5.17.0 "
            "`src/transformers/trainer.py:3951-3955`), so this call saves no weights that `from_pretrained` "
            "can load; the trained weights are kept only in the Trainer's sharded checkpoints, if it writes any. Set "
            "`fsdp_state_dict_type: "
            "FULL_STATE_DICT`, or call `" +
            save->receiver + ".accelerator.state.fsdp_plugin.set_state_dict_type(\"FULL_STATE_DICT\")` before saving.",
        std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_save_model_with_sharded_state_dict() {
  return std::make_unique<SaveModelWithShardedStateDict>();
}

}  // namespace lint::rules
