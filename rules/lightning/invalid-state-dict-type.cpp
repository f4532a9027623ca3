// PL002: Lightning FSDPStrategy's state_dict_type other than "full" / "sharded": the first checkpoint save or load
// raises ValueError.
#include <string>

#include "rules/lightning/lightning_support.hpp"

namespace lint::rules {
namespace {

class InvalidStateDictType final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::PythonScript || !doc.python) return;
    for (const model::PyCall& c : doc.python->calls) {
      if (!lightning::is_fsdp_strategy(c)) continue;
      const model::PyArg* a = c.keyword("state_dict_type");
      if (a == nullptr || a->value.kind != model::ValueKind::String) continue;
      const std::string& v = a->value.text;
      if (v == "full" || v == "sharded") continue;
      std::string fix = "\"full\" or \"sharded\"";
      if (v.find("SHARDED") != std::string::npos || v.find("sharded") != std::string::npos)
        fix = "\"sharded\"";
      else if (v.find("FULL") != std::string::npos || v.find("full") != std::string::npos)
        fix = "\"full\"";
      ctx.report(doc.path(), a->region,
                 "Lightning's FSDPStrategy takes `state_dict_type` \"full\" or \"sharded\" (its own names, compared "
                 "exactly), not \"" +
                     v +
                     "\": training starts, and the first checkpoint save or load raises ValueError: Unknown "
                     "state_dict_type: " +
                     v + ". Use " + fix + ".");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_invalid_state_dict_type() {
  return std::make_unique<InvalidStateDictType>();
}

}  // namespace lint::rules
