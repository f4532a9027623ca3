// LL005: a suppression directive that suppresses nothing because it is malformed or names no code.
#include "lint/rule/rule.hpp"

namespace lint::rules {
namespace {

class MalformedSuppression final : public rule::Rule {
 public:
  void check_suppression(const model::Document& doc, const rule::Suppression& s,
                         rule::RuleContext& ctx) const override {
    if (s.problem.empty()) return;
    // A bare `# noqa` belongs to flake8/ruff; it matters only where a launchlint finding was meant to be silenced.
    if (s.bare_noqa && !s.covers_finding) return;
    ctx.report(doc.path(), s.region, s.problem + ".");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_malformed_suppression() { return std::make_unique<MalformedSuppression>(); }

}  // namespace lint::rules
