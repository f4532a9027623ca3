// ACC008: an fsdp_config sub-key accelerate never reads (typo, or the removed fsdp_backward_prefetch_policy).
#include <vector>

#include "lint/model/versions.hpp"
#include "rules/fix_support.hpp"
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
      rule::Fix fix;
      // The renamed key keeps the file's spelling (with or without the `fsdp_` prefix) and must not exist yet.
      const bool prefixed_style = e.key.text.starts_with("fsdp_");
      auto target_free = [&](std::string_view full) {
        const std::string_view bare = full.substr(5);
        return fsdp->find(std::string(full)) == nullptr && fsdp->find(std::string(bare)) == nullptr;
      };
      auto spelled = [&](std::string_view full) { return std::string(prefixed_style ? full : full.substr(5)); };
      if (prefixed == "fsdp_backward_prefetch_policy") {
        // Before accelerate 1.0 the old key was still read (a FutureWarning, its value passed on as
        // fsdp_backward_prefetch); it is dead only from 1.0 (commit 79a84264).
        if (!model::target_versions().at_least("accelerate", model::Version{1, 0, 0})) continue;
        // The old key took the same BackwardPrefetch names; a rename makes the value take effect: unsafe.
        if (target_free("fsdp_backward_prefetch"))
          fix = fixes::rename_key(doc, e.key.region, e.key.text, spelled("fsdp_backward_prefetch"),
                                  rule::FixSafety::Unsafe);
        message = "`fsdp_config." + e.key.text +
                  "` was removed in accelerate 1.0 and is silently ignored: use `fsdp_backward_prefetch` "
                  "(BACKWARD_PRE, BACKWARD_POST or NO_PREFETCH).";
      } else if (auto best = model::accelerate::closest(prefixed, names); !best.empty()) {
        message += " Did you mean `" + std::string(best) + "`?";
        if (!fixes::unambiguous(prefixed, best, names).empty() && target_free(best))
          fix = fixes::rename_key(doc, e.key.region, e.key.text, spelled(best), rule::FixSafety::Safe);
      }
      ctx.report_fix(doc.path(), e.key.region, std::move(message), std::move(fix));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unknown_fsdp_config_key() { return std::make_unique<UnknownFsdpConfigKey>(); }

}  // namespace lint::rules
