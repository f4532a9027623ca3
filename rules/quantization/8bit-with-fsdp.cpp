// QNT001: bitsandbytes 8-bit loading in a launch that shards the model with FSDP.
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

class EightBitWithFsdp final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    const model::QuantizationFacts& q = model::quantization_facts(l);
    const model::Setting* on = fsdp_site(l);
    for (const model::QuantizedLoad& load : q.loads) {
      if (load.bits != 8) continue;
      // axolotl patches FSDP2 for bitsandbytes 8-bit weights (axolotl src/axolotl/loaders/patch_manager.py
      // `_apply_fsdp2_bnb_patches`, monkeypatch/fsdp2_qlora.py).
      if (load.front_end == model::LoaderFrontEnd::Axolotl && l.fsdp_version() == 2) continue;
      std::string msg =
          "bitsandbytes 8-bit loading (`" + load.site.what + "`) in a launch that shards the model with FSDP";
      if (load.front_end == model::LoaderFrontEnd::LlamaFactory) {
        msg +=
            ": LLaMA-Factory raises ValueError(\"Only 4-bit quantized model can use fsdp+qlora or auto device "
            "map.\") when it loads the model.";
      } else {
        const auto v = l.fsdp_version();
        msg +=
            ": FSDP cannot shard int8 weights. Under FSDP1 wrapping fails with ValueError(\"Cannot flatten integer "
            "dtype tensors\"), under FSDP2 with a RuntimeError when the int8 weights become FSDP parameters (\"only "
            "Tensors of floating point dtype can require gradients\" through the Trainer's `fsdp`, \"Creating a "
            "Parameter from an instance of type Int8Params requires that detach() returns an instance of the same "
            "type\" through an accelerate FSDP config)";
        msg += v == 1 ? " (FSDP1 here)." : v == 2 ? " (FSDP2 here)." : ".";
      }
      msg +=
          " QLoRA with FSDP is 4-bit: `load_in_4bit` with `bnb_4bit_quant_storage` set to the model's dtype "
          "(e.g. bfloat16).";
      ctx.report(load.site.path, load.site.region, msg, related_to(on, "FSDP is turned on here."));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_8bit_with_fsdp() {
  return std::make_unique<EightBitWithFsdp>();
}

}  // namespace lint::rules
