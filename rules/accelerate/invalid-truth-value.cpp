// ACC009: a boolean fsdp_config field whose value str_to_bool rejects ("invalid truth value").
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class InvalidTruthValue final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    const parse::Node* fsdp = root != nullptr ? root->find("fsdp_config") : nullptr;
    if (fsdp == nullptr || !fsdp->is_map()) return;
    for (const parse::Entry& e : fsdp->entries) {
      const auto* info = model::accelerate::find_fsdp_config_key(e.key.text);
      if (info == nullptr || info->type != model::accelerate::FsdpValueType::Truth) continue;
      const parse::Node& v = e.value;
      if (v.kind == parse::NodeKind::Bool || v.kind == parse::NodeKind::Null) continue;
      // The launcher exports str(value) and the plugin parses it with str_to_bool.
      if ((v.kind == parse::NodeKind::String || v.kind == parse::NodeKind::Int) && model::parse_truth(v.text))
        continue;
      ctx.report(doc.path(), v.region,
                 "`" + e.key.text + ": " + v.text + "` is not a truth value: accelerate raises \"invalid truth "
                 "value\" in every process. Use true or false (accepted: y, yes, t, true, on, 1, n, no, f, false, "
                 "off, 0).");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_invalid_truth_value() { return std::make_unique<InvalidTruthValue>(); }

}  // namespace lint::rules
