// ACC006: deepspeed_config_file together with inline DeepSpeed keys or a top-level mixed_precision.
#include <array>

#include "rules/accelerate/deepspeed_replaced_keys.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class DeepspeedConfigFileConflict final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;
    const parse::Node* dt = root->find("distributed_type");
    if (dt == nullptr || dt->kind != parse::NodeKind::String || dt->text != "DEEPSPEED") return;
    const parse::Node* ds = root->find("deepspeed_config");
    if (ds == nullptr || !ds->is_map()) return;
    const parse::Entry* file = ds->find_entry("deepspeed_config_file");
    if (file == nullptr || file->value.kind == parse::NodeKind::Null) return;
    const std::vector<rule::RelatedLocation> rel = {
        {doc.path(), file->key.region, "deepspeed_config_file is set here."}};
    const std::string tail =
        " is ignored when `deepspeed_config_file` is set, and accelerate raises ValueError "
        "(\"When using `deepspeed_config_file`, the following accelerate config variables will be "
        "ignored\"). Move the setting into the DeepSpeed JSON file.";
    for (const parse::Entry& e : ds->entries) {
      if (std::find(kDeepSpeedJsonReplacedKeys.begin(), kDeepSpeedJsonReplacedKeys.end(), e.key.text) ==
          kDeepSpeedJsonReplacedKeys.end())
        continue;
      ctx.report(doc.path(), e.key.region, "`deepspeed_config." + e.key.text + "`" + tail, rel);
    }
    if (const parse::Entry* mp = root->find_entry("mixed_precision")) {
      ctx.report(doc.path(), mp->key.region,
                 "Top-level `mixed_precision`" + tail.substr(0, tail.find(" Move")) +
                     " Set fp16/bf16 in the DeepSpeed JSON file and remove `mixed_precision` here.",
                 rel);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_config_file_conflict() {
  return std::make_unique<DeepspeedConfigFileConflict>();
}

}  // namespace lint::rules
