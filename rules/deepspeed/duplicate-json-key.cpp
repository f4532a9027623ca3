// DS004: a key written twice in one object of a DeepSpeed JSON.
#include <map>

#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

class DuplicateJsonKey final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = deepspeed_json(l);
    if (doc == nullptr) return;
    const model::DeepSpeedReader reader = model::deepspeed_state(l).reader;
    const bool raw = reader == model::DeepSpeedReader::Raw;
    visit_nodes(*doc->root_map(), [&](const parse::Node& n, const parse::Entry*, const parse::Node*) {
      if (!n.is_map()) return;
      std::map<std::string_view, const parse::Entry*> first;
      for (const parse::Entry& e : n.entries) {
        auto [it, inserted] = first.emplace(e.key.text, &e);
        if (inserted) continue;
        const std::string head = "`" + e.key.text + "` is written twice in this object";
        const std::string msg =
            raw ? head +
                      ": DeepSpeed opens the file with a duplicate-key check and raises ValueError(\"Duplicate "
                      "keys in DeepSpeed config\") (" +
                      ds_cite("deepspeed/runtime/config_utils.py:205-212") + ")."
                : head +
                      ": `json.load` (the HF Trainer, accelerate) keeps the last value and drops the first "
                      "silently, while DeepSpeed reading the file itself raises ValueError(\"Duplicate keys in "
                      "DeepSpeed config\"). Keep one.";
        ctx.report(doc->path(), e.key.region, msg, {{doc->path(), it->second->key.region, "First written here."}},
                   raw ? rule::Severity::Error : rule::Severity::Warning);
      }
    });
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_duplicate_json_key() {
  return std::make_unique<DuplicateJsonKey>();
}

}  // namespace lint::rules
