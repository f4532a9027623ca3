// ACC004: num_processes: -1 (accelerate's placeholder): `accelerate launch` raises.
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class NumProcessesUnset final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    const parse::Node* n = root != nullptr ? root->find("num_processes") : nullptr;
    if (n == nullptr || n->kind != parse::NodeKind::Int || n->integer != -1) return;
    ctx.report(doc.path(), n->region,
               "`num_processes: -1` makes `accelerate launch` raise \"You need to manually pass in "
               "--num_processes\": set the total number of processes (GPUs across all machines).");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_num_processes_unset() { return std::make_unique<NumProcessesUnset>(); }

}  // namespace lint::rules
