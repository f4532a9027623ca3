// LL004: a suppression comment that suppresses nothing.
#include "lint/rule/rule.hpp"

namespace lint::rules {
namespace {

class UnusedSuppression final : public rule::Rule {
 public:
  void check_suppression(const model::Document& doc, const rule::Suppression& s,
                         rule::RuleContext& ctx) const override {
    for (std::size_t i = 0; i < s.codes.size(); ++i) {
      if (s.used[i] || !ctx.is_known_code(s.codes[i]) || !ctx.is_enabled_code(s.codes[i])) continue;
      // A `# noqa` naming launchlint codes is ours; other tools' codes are left alone (checked above).
      const std::string what = s.scope == rule::Suppression::Scope::File ? "file" : "line";
      ctx.report(doc.path(), s.code_regions[i],
                 "Unused suppression: no " + s.codes[i] + " finding on this " + what + "; remove '" + s.codes[i] +
                     "' from the comment.");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unused_suppression() { return std::make_unique<UnusedSuppression>(); }

}  // namespace lint::rules
