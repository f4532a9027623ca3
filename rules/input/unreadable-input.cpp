// LL002: an input that cannot be read (missing, permission, binary, not UTF-8, over the size limit).
#include "lint/rule/rule.hpp"

namespace lint::rules {
namespace {

class UnreadableInput final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (!doc.read_error) return;
    if (doc.outside_project) {
      // A launch names a file outside the project (SECURITY.md): not read, not quoted, only named.
      ctx.report(doc.path(), doc.read_error.region(), "Not read: " + *doc.read_error + ".", {}, rule::Severity::Info);
      return;
    }
    // A folder of the walk that could not be listed: its files are not checked.
    if ((*doc.read_error).starts_with(model::kCannotListFolder)) {
      std::string why = *doc.read_error;
      why[0] = 'C';
      ctx.report(doc.path(), doc.read_error.region(), why + ".");
      return;
    }
    // Files found by walking a directory are only reported when their name says they are launch inputs.
    ctx.report(doc.path(), doc.read_error.region(), "Cannot read this file: " + *doc.read_error + ".");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unreadable_input() {
  return std::make_unique<UnreadableInput>();
}

}  // namespace lint::rules
