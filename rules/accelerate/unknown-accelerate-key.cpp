// ACC001: a top-level key accelerate does not know: `accelerate launch` raises "had unknown keys".
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class UnknownAccelerateKey final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;
    for (const parse::Entry& e : root->entries) {
      const std::string& k = e.key.text;
      if (model::accelerate::is_top_level_key(k)) continue;
      std::string hint;
      if (model::accelerate::find_fsdp_config_key(k) != nullptr) {
        hint = " FSDP keys belong under `fsdp_config:`.";
      } else if (auto best = model::accelerate::closest(k, model::accelerate::top_level_keys()); !best.empty()) {
        hint = " Did you mean `" + std::string(best) + "`?";
      }
      ctx.report(doc.path(), e.key.region,
                 "Unknown accelerate config key `" + k + "`: `accelerate launch` rejects the file (\"had unknown "
                 "keys\")." + hint);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unknown_accelerate_key() { return std::make_unique<UnknownAccelerateKey>(); }

}  // namespace lint::rules
