// LL003: a suppression comment names a code that does not exist.
#include "lint/rule/rule.hpp"

namespace lint::rules {
namespace {

class UnknownRuleInSuppression final : public rule::Rule {
 public:
  void check_suppression(const model::Document& doc, const rule::Suppression& s,
                         rule::RuleContext& ctx) const override {
    for (std::size_t i = 0; i < s.codes.size(); ++i) {
      // `# noqa: E501` is another tool's code: only launchlint's own comments must name launchlint codes.
      if (s.noqa || ctx.is_known_code(s.codes[i])) continue;
      ctx.report(doc.path(), s.code_regions[i],
                 "Unknown rule code '" + s.codes[i] + "' in suppression comment; `launchlint rule --all` lists them.");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unknown_rule_in_suppression() {
  return std::make_unique<UnknownRuleInSuppression>();
}

}  // namespace lint::rules
