// ACC002: an accelerate config without distributed_type.
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class MissingDistributedType final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr || root->find("distributed_type") != nullptr) return;
    const source::Region at = root->entries.empty() ? root->region : root->entries.front().key.region;
    ctx.report(doc.path(), at,
               "This accelerate config has no `distributed_type`: `accelerate launch` raises \"A distributed_type "
               "must be specified in the config file\". Add e.g. `distributed_type: FSDP`.");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_missing_distributed_type() { return std::make_unique<MissingDistributedType>(); }

}  // namespace lint::rules
