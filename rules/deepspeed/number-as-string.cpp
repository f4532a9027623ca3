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

// A string pydantic cannot read as an int: "5e8", "1.5", "1e9". pydantic (v1 and v2, lax mode) reads a string of
// digits as an int ("500000000" works), with zero decimals in v2 ("500000000.0"), but never an exponent or fraction.
bool integer_field_rejects(const std::string& t) {
  if (!numeric_text(t)) return false;
  std::size_t i = (t[0] == '-' || t[0] == '+') ? 1 : 0;
  const std::size_t digits = i;
  while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
  if (i == t.size()) return i == digits;  // only a sign
  if (t[i] != '.') return true;            // an exponent
  ++i;
  while (i < t.size() && t[i] == '0') ++i;
  return i != t.size();                    // a fraction other than zeros, or an exponent after it
}

// The int fields of DeepSpeedZeroConfig (DeepSpeed 0.19.5 deepspeed/runtime/zero/config.py:113-341), by their JSON
// name. Written as numbers, 5e8 is fine (pydantic takes an integral float); written as strings they must be digits.
constexpr const char* kZeroIntFields[] = {
    "reduce_bucket_size",
    "allgather_bucket_size",
    "sub_group_size",
    "stage3_prefetch_bucket_size",
    "stage3_param_persistence_threshold",
    "stage3_model_persistence_threshold",
    "stage3_max_live_parameters",
    "stage3_max_reuse_distance",
    "stage3_module_granularity_threshold",
    "zero_hpz_partition_size",
    "mics_shard_size",
};

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
      for (const char* key : kZeroIntFields) {
        const parse::Node* v = zo->find(key);
        if (v == nullptr || v->kind != parse::NodeKind::String || !integer_field_rejects(v->text)) continue;
        ctx.report(doc->path(), v->region,
                   "`zero_optimization." + std::string(key) + "` is the string \"" + v->text +
                       "\", which DeepSpeed's ZeRO config (a pydantic model with an int field, " +
                       ds_cite("deepspeed/runtime/zero/config.py:113-341") +
                       ") cannot read as an integer: deepspeed.initialize fails with a ValidationError for "
                       "DeepSpeedZeroConfig. Write " + v->text + " without quotes (a JSON number such as 5e8 is read as "
                       "an integer).");
      }
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
