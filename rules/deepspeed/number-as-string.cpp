// DS009: a batch, accumulation or clipping number written as a string in a DeepSpeed JSON.
#include <charconv>

#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

bool numeric_text(const std::string& t) {
  if (t.empty()) return false;
  double d = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), d);
  return ec == std::errc{} && ptr == t.data() + t.size();
}

class NumberAsString final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = deepspeed_json(l);
    if (doc == nullptr) return;
    const parse::Node& root = *doc->root_map();
    const model::DeepSpeedReader reader = model::deepspeed_state(l).reader;
    for (const char* key :
         {"train_batch_size", "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "gradient_clipping"}) {
      const parse::Node* v = root.find(key);
      if (v == nullptr || v->kind != parse::NodeKind::String || !numeric_text(v->text)) continue;
      std::string msg = "`" + std::string(key) + "` is the string \"" + v->text + "\", not a number. ";
      if (reader == model::DeepSpeedReader::Integration) {
        msg +=
            "The HF integration compares it with the Trainer's integer value and raises \"Please correct the "
            "following DeepSpeed config values that mismatch TrainingArguments values\" (transformers 5.17.0 "
            "`integrations/deepspeed.py:105-129, 256`).";
      } else {
        msg +=
            "DeepSpeed reads top-level values as they are (`get_scalar_param`) and its batch checks compare them "
            "with integers (`train_batch > 0`, " +
            ds_cite("deepspeed/runtime/config.py:912-930") +
            "): a TypeError at deepspeed.initialize; under the HF Trainer the mismatch check raises instead.";
      }
      ctx.report(doc->path(), v->region, msg + " Write " + v->text + " without quotes.");
    }
    if (const parse::Node* zo = root.find("zero_optimization"); zo != nullptr && zo->is_map()) {
      const parse::Node* st = zo->find("stage");
      if (st != nullptr && st->kind == parse::NodeKind::String && numeric_text(st->text)) {
        ctx.report(
            doc->path(), st->region,
            "`zero_optimization.stage` is the string \"" + st->text +
                "\": accelerate's and transformers' DeepSpeed helpers compare the stage with the integer "
                "(`is_zero3()` is `self._stage == 3`, accelerate `src/accelerate/utils/deepspeed.py:162-247`), so "
                "ZeRO-3 loading (zero.Init) and ZeRO-3 checks are skipped for a string stage. Write " +
                st->text + " without quotes.");
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_number_as_string() {
  return std::make_unique<NumberAsString>();
}

}  // namespace lint::rules
