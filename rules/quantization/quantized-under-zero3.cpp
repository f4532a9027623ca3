// QNT003: bitsandbytes quantized loading under DeepSpeed ZeRO-3 where the versions do not support it.
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

class QuantizedUnderZero3 final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || ds.zero_stage != 3) return;
    const model::QuantizationFacts& q = model::quantization_facts(l);
    for (const model::QuantizedLoad& load : q.loads) {
      // Only LLaMA-Factory's own check is backed by evidence so far; the transformers path waits for the oracle
      // cases zero3-q8 / zero3-q4-* (DeepSpeed on the oracle machine).
      if (load.bits != 8 || load.front_end != model::LoaderFrontEnd::LlamaFactory) continue;
      std::string msg = "bitsandbytes 8-bit loading (`" + load.site.what + "`) under DeepSpeed ZeRO-3";
      if (load.front_end == model::LoaderFrontEnd::LlamaFactory) {
        msg +=
            ": LLaMA-Factory raises ValueError(\"Only 4-bit quantized model can use fsdp+qlora or auto device "
            "map.\") when it loads the model.";
      } else {
        msg +=
            ": ZeRO-3 partitions parameters as floating-point tensors and cannot partition int8 `Int8Params`; "
            "the launch fails when the model is loaded or prepared.";
      }
      msg += load.front_end == model::LoaderFrontEnd::LlamaFactory
                 ? " Use `quantization_bit: 4`, or ZeRO-2."
                 : " Use 4-bit loading with `bnb_4bit_quant_storage` set to the model's dtype, or ZeRO-2.";
      ctx.report(load.site.path, load.site.region, msg, related_site(ds.stage_site, "ZeRO stage 3 is set here."));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_quantized_under_zero3() {
  return std::make_unique<QuantizedUnderZero3>();
}

}  // namespace lint::rules
