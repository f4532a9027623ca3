#include "rules/registry.hpp"

namespace lint::rules {

#define LINT_RULE(code, slug, area, severity, factory) std::unique_ptr<rule::Rule> factory();
#include "rules/rules.def"
#undef LINT_RULE

const rule::RuleTable& rule_table() {
  static const rule::RuleTable table = [] {
    rule::RuleTable t;
#define LINT_RULE(code, slug, area, severity, factory) \
  t.push_back(rule::RuleInfo{#code, slug, #area, rule::Severity::severity, rule_doc(slug), &factory});
#include "rules/rules.def"
#undef LINT_RULE
    return t;
  }();
  return table;
}

}  // namespace lint::rules
