// DS013: a DeepSpeed JSON for the HF Trainer / accelerate without a `zero_optimization` section.
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

class MissingZeroOptimization final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file) return;
    const model::Document* doc = deepspeed_json(l);
    if (doc == nullptr) return;
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (ds.reader != model::DeepSpeedReader::Integration) return;
    const parse::Node& root = *doc->root_map();
    if (root.find("zero_optimization") != nullptr) return;
    source::Region at = root.entries.empty() ? root.region : root.entries.front().key.region;
    std::vector<rule::RelatedLocation> related;
    if (ds.turned_on && !ds.turned_on->path.empty())
      related.push_back({ds.turned_on->path, ds.turned_on->region, "The file is given to DeepSpeed here."});
    ctx.report(doc->path(), at,
               "No `zero_optimization` section: accelerate's DeepSpeedPlugin, which the HF Trainer also builds from "
               "`--deepspeed`, raises ValueError(\"Please specify the ZeRO optimization config in the DeepSpeed "
               "config.\") before training starts (accelerate 1.15.0 `src/accelerate/utils/dataclasses.py:1276-1277`). "
               "Add `\"zero_optimization\": {\"stage\": 0}` for plain data parallelism, or the stage you mean.",
               std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_missing_zero_optimization() {
  return std::make_unique<MissingZeroOptimization>();
}

}  // namespace lint::rules
