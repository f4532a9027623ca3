// ACC001: a top-level key accelerate does not know: `accelerate launch` raises "had unknown keys".
#include "rules/fix_support.hpp"
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
      rule::Fix fix;
      if (model::accelerate::find_fsdp_config_key(k) != nullptr) {
        hint = " FSDP keys belong under `fsdp_config:`.";
      } else if (auto best = model::accelerate::closest(k, model::accelerate::top_level_keys()); !best.empty()) {
        hint = " Did you mean `" + std::string(best) + "`?";
        // A rename is safe when the typo has one answer and the file does not already hold that key.
        if (!fixes::unambiguous(k, best, model::accelerate::top_level_keys()).empty() &&
            root->find(std::string(best)) == nullptr)
          fix = fixes::rename_key(doc, e.key.region, k, best, rule::FixSafety::Safe);
      }
      ctx.report_fix(doc.path(), e.key.region,
                     "Unknown accelerate config key `" + k +
                         "`: `accelerate launch` rejects the file (\"had unknown "
                         "keys\")." +
                         hint,
                     std::move(fix));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unknown_accelerate_key() { return std::make_unique<UnknownAccelerateKey>(); }

}  // namespace lint::rules
