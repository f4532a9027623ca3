// The rule table, expanded from rules.def. Only main.cpp and the tests include this.
#pragma once

#include "lint/rule/rule.hpp"

namespace lint::rules {

/// Every rule in code order, with its embedded doc page.
const rule::RuleTable& rule_table();

/// The embedded doc page of a slug (empty when missing).
std::string_view rule_doc(std::string_view slug);

}  // namespace lint::rules
