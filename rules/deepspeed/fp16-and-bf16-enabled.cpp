// DS006: fp16 and bf16 both enabled in one DeepSpeed config.
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

class Fp16AndBf16Enabled final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::DeepSpeedConfig || doc.root_map() == nullptr) return;
    const parse::Node& root = *doc.root_map();
    const parse::Node* fp16 = enabled_true(root, "fp16");
    // `bfloat16` is read only when `bf16` is absent (precision_config.py:33-38).
    const parse::Node* bf16 =
        root.find("bf16") != nullptr ? enabled_true(root, "bf16") : enabled_true(root, "bfloat16");
    if (fp16 == nullptr || bf16 == nullptr) return;
    ctx.report(doc.path(), bf16->region,
               "fp16 and bf16 are both enabled: DeepSpeed asserts \"bfloat16 and fp16 modes cannot be simultaneously "
               "enabled\" when it reads the config (" +
                   ds_cite("deepspeed/runtime/config.py:813-815") + "). Enable one of them.",
               {{doc.path(), fp16->region, "fp16 is enabled here."}});
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_fp16_and_bf16_enabled() {
  return std::make_unique<Fp16AndBf16Enabled>();
}

}  // namespace lint::rules
