// LL001: a config file that is not well-formed, or a Python file with a syntax error.
#include "lint/rule/rule.hpp"

namespace lint::rules {
namespace {

class ParseError final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.read_error || !doc.report_parse_errors) return;
    for (const parse::ParseError& e : doc.parse_errors()) {
      std::string message = e.message;
      if (!message.empty() && message.back() != '.') message += '.';
      ctx.report(doc.path(), e.region, message);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_parse_error() { return std::make_unique<ParseError>(); }

}  // namespace lint::rules
