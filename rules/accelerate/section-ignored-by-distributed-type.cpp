// ACC007: an fsdp_config (or deepspeed_config) section that the effective distributed_type never reads.
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class SectionIgnoredByDistributedType final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = accelerate_config(l);
    if (doc == nullptr) return;
    const parse::Node* root = doc->root_map();
    if (root == nullptr) return;
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind != model::ValueKind::String) return;
    const model::Setting* dt_site = written_site(l, model::keys::kDistributedType);
    check(*doc, *root, "fsdp_config", "FSDP", dt, dt_site, ctx);
    check(*doc, *root, "deepspeed_config", "DEEPSPEED", dt, dt_site, ctx);
  }

 private:
  static void check(const model::Document& doc, const parse::Node& root, const char* section, const char* needs,
                    const model::Value& dt, const model::Setting* dt_site, rule::RuleContext& ctx) {
    const parse::Entry* e = root.find_entry(section);
    if (e == nullptr || !e->value.is_map() || e->value.entries.empty() || dt.text == needs) return;
    ctx.report(doc.path(), e->key.region,
               "`" + std::string(section) + "` is ignored: the effective `distributed_type` is " + dt.text +
                   ", not " + needs + ", so none of its settings reach the training processes.",
               related_to(dt_site, "distributed_type is decided here."));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_section_ignored_by_distributed_type() {
  return std::make_unique<SectionIgnoredByDistributedType>();
}

}  // namespace lint::rules
