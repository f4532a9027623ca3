// ACC008: an fsdp_config sub-key accelerate never reads (typo, or the removed fsdp_backward_prefetch_policy).
#include <vector>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

class UnknownFsdpConfigKey final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    const parse::Node* fsdp = root != nullptr ? root->find("fsdp_config") : nullptr;
    if (fsdp == nullptr || !fsdp->is_map()) return;
    std::vector<std::string_view> names;
    for (const auto& k : model::accelerate::fsdp_keys()) names.push_back(k.name);
    for (const parse::Entry& e : fsdp->entries) {
      const std::string prefixed = model::accelerate::fsdp_config_key(e.key.text);
      if (model::accelerate::find_fsdp_key(prefixed) != nullptr) continue;
      std::string message = "`fsdp_config." + e.key.text + "` is not a key accelerate reads: it is silently ignored.";
      if (prefixed == "fsdp_backward_prefetch_policy") {
        message = "`fsdp_config." + e.key.text +
                  "` was removed in accelerate 1.0 and is silently ignored: use `fsdp_backward_prefetch` "
                  "(BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH).";
      } else if (auto best = model::accelerate::closest(prefixed, names); !best.empty()) {
        message += " Did you mean `" + std::string(best) + "`?";
      }
      ctx.report(doc.path(), e.key.region, std::move(message));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unknown_fsdp_config_key() { return std::make_unique<UnknownFsdpConfigKey>(); }

}  // namespace lint::rules
