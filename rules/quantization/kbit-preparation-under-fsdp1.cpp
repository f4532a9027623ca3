// QNT008: peft's `prepare_model_for_kbit_training` in an FSDP1 launch of a 4-bit model stored in 16 bits: it casts
// every parameter that is not 4-bit to fp32 (peft v0.20.0 src/peft/utils/other.py:197-202) while the 4-bit weights
// keep their 16-bit `bnb_4bit_quant_storage`, and FSDP1 flattens each unit into one tensor of one dtype (torch
// torch/distributed/fsdp/_flat_param.py:814, "Must flatten tensors with uniform dtype"; oracle: the same check
// raised for a 4-bit model whose storage and model dtypes differ, ds_results.json fsdp1-q4-storage-bf16-dtype-fp32).
#include <string>

#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

class KbitPreparationUnderFsdp1 final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    const std::optional<int> version = l.fsdp_version();
    if (!version || *version != 1) return;
    const model::Document* script = model::launch_script(l);
    if (script == nullptr || !script->python) return;
    const model::PyCall* prep = nullptr;
    for (const model::PyCall& c : script->python->calls) {
      if (c.name == "prepare_model_for_kbit_training") {
        prep = &c;
        break;
      }
    }
    if (prep == nullptr) return;
    const model::QuantizationFacts& q = model::quantization_facts(l);
    for (const model::QuantizedLoad& load : q.loads) {
      // 8-bit and integer storage are QNT001 / FSDP011; fp32 storage stays uniform with the fp32 casts.
      if (load.bits != 4 || !load.storage || (*load.storage != "bfloat16" && *load.storage != "float16")) continue;
      std::vector<rule::RelatedLocation> related;
      if (load.storage_site)
        related.push_back({load.storage_site->path, load.storage_site->region,
                           "The 4-bit weights are stored in " + *load.storage + " here."});
      if (const model::Setting* s = fsdp_site(l)) related.push_back({s->path, s->region, "FSDP is turned on here."});
      ctx.report(script->path(), prep->callee_region,
                 "`prepare_model_for_kbit_training` casts every parameter that is not 4-bit to fp32 (peft v0.20.0 "
                 "`src/peft/utils/other.py:197-202`), while the 4-bit weights keep their " +
                     *load.storage +
                     " `bnb_4bit_quant_storage`: FSDP1 flattens each unit's parameters into one tensor and raises "
                     "`ValueError: Must flatten tensors with uniform dtype` (torch "
                     "`torch/distributed/fsdp/_flat_param.py:814`). Under FSDP leave it out (TRL skips it for sharded "
                     "QLoRA) and turn on gradient checkpointing through the Trainer or FSDP's activation "
                     "checkpointing.",
                 std::move(related));
      return;
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_kbit_preparation_under_fsdp1() {
  return std::make_unique<KbitPreparationUnderFsdp1>();
}

}  // namespace lint::rules
