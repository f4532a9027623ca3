// FSDP011: FSDP with bitsandbytes 4-bit weights whose storage dtype is not the model's float dtype.
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

bool is_float(const std::string& dtype) {
  return dtype == "bfloat16" || dtype == "float16" || dtype == "float32" || dtype == "compute_dtype";
}

class QloraQuantStorageMismatch final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    const model::QuantizationFacts& q = model::quantization_facts(l);
    const model::Setting* on = fsdp_site(l);
    const auto version = l.fsdp_version();
    // FSDP1 flattens each unit into one tensor of one dtype; FSDP2 (accelerate) leaves non-float Params4bit
    // unsharded with a warning.
    const rule::Severity sev = version == 1 ? rule::Severity::Error : rule::Severity::Warning;
    const std::string fsdp1 =
        " FSDP1 flattens each wrapped unit into one flat parameter of a single dtype, so the 4-bit "
        "weights must be stored in the dtype of the unit's other parameters.";
    const std::string effect =
        !version ? fsdp1 + " FSDP2 (accelerate) leaves non-floating `Params4bit` unsharded."
        : version == 1
            ? " FSDP1 flattens each wrapped unit into one flat parameter of a single dtype and fails at "
              "wrap time (ValueError \"Cannot flatten integer dtype tensors\" for uint8 storage, \"Must "
              "flatten tensors with uniform dtype\" for a float storage that differs from the model's dtype)."
            : " FSDP2 (accelerate) leaves non-floating `Params4bit` out of sharding (\"Found N non-floating "
              "frozen Params4bit. Excluding from FSDP2 sharding\"): every rank keeps the whole quantized model.";
    for (const model::QuantizedLoad& load : q.loads) {
      if (load.bits != 4 || !load.storage) continue;
      auto rel = related_to(on, "FSDP is turned on here.");
      if (load.storage->empty() || !is_float(*load.storage)) {
        const std::string what = load.storage->empty() ? "without `bnb_4bit_quant_storage` (bitsandbytes stores 4-bit "
                                                         "weights as uint8 by default)"
                                                       : "with `bnb_4bit_quant_storage` " + *load.storage;
        const model::Site& at = load.storage->empty() || !load.storage_site ? load.site : *load.storage_site;
        ctx.report(at.path, at.region,
                   "bitsandbytes 4-bit loading (`" + load.site.what + "`) under FSDP " + what + "." + effect +
                       " Set `bnb_4bit_quant_storage` to the model's dtype (e.g. torch.bfloat16) and load the model "
                       "in that dtype.",
                   rel, sev);
        continue;
      }
      // Under FSDP2 a float storage that differs from the model's dtype trains (ground truth fsdp2-q4-storage-*).
      if (version != 1) continue;
      if (!load.model_dtype || load.model_dtype->empty() || *load.model_dtype == *load.storage) continue;
      const model::Site& at = load.storage_site ? *load.storage_site : load.site;
      auto rel2 = rel;
      if (load.dtype_site)
        rel2.push_back({load.dtype_site->path, load.dtype_site->region, "The model's dtype is set here."});
      ctx.report(at.path, at.region,
                 "4-bit weights stored as " + *load.storage + " while the model is loaded in " + *load.model_dtype +
                     " under FSDP: the quantized and the regular parameters of a wrapped unit differ in dtype." +
                     effect + " Use the same dtype for `bnb_4bit_quant_storage` and the model's `dtype`.",
                 rel2, sev);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_qlora_quant_storage_mismatch() {
  return std::make_unique<QloraQuantStorageMismatch>();
}

}  // namespace lint::rules
