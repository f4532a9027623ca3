// DS010: a DeepSpeed JSON for the HF Trainer / accelerate without `train_micro_batch_size_per_gpu`.
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

class MissingMicroBatchSize final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file) return;
    const model::Document* doc = deepspeed_json(l);
    if (doc == nullptr) return;
    const model::DeepSpeedReader reader = model::deepspeed_state(l).reader;
    // Lightning fills the micro batch from the dataloader; a file whose reader is unknown may be Lightning's.
    if (reader != model::DeepSpeedReader::Integration && reader != model::DeepSpeedReader::Raw) return;
    const parse::Node& root = *doc->root_map();
    if (root.entries.empty() || root.find("train_micro_batch_size_per_gpu") != nullptr) return;
    if (root.find("elasticity") != nullptr) return;  // elasticity computes the batch values
    const parse::Entry* tbs = root.find_entry("train_batch_size");
    if (tbs == nullptr) {
      const parse::Entry* ga = root.find_entry("gradient_accumulation_steps");
      const parse::Entry& at = ga != nullptr ? *ga : root.entries.front();
      if (reader == model::DeepSpeedReader::Raw) {
        ctx.report(doc->path(), at.key.region,
                   "No `train_micro_batch_size_per_gpu` and no `train_batch_size`: deepspeed.initialize reads the "
                   "batch values from this file only, and asserts \"Either train_batch_size or "
                   "train_micro_batch_size_per_gpu needs to be provided\" (" +
                       ds_cite("deepspeed/runtime/config.py:930-972") +
                       "). Add `train_micro_batch_size_per_gpu` (the batch each process loads).");
        return;
      }
      ctx.report(doc->path(), at.key.region,
                 "No `train_micro_batch_size_per_gpu` and no `train_batch_size`: the HF Trainer and accelerate fill "
                 "only values written as \"auto\" (accelerate adds nothing but `gradient_accumulation_steps`, "
                 "accelerate `src/accelerate/utils/dataclasses.py:1274-1277`), so DeepSpeed gets neither batch value "
                 "and asserts \"Either train_batch_size or train_micro_batch_size_per_gpu needs to be provided\" in "
                 "deepspeed.initialize (" +
                     ds_cite("deepspeed/runtime/config.py:930-972") +
                     "). Add `\"train_micro_batch_size_per_gpu\": \"auto\"`.");
      return;
    }
    // Plain DeepSpeed derives the micro batch from train_batch_size as designed (DS001 checks the division).
    if (reader != model::DeepSpeedReader::Integration || tbs->value.kind != parse::NodeKind::Int) return;
    ctx.report(
        doc->path(), tbs->key.region,
        "`train_batch_size` without `train_micro_batch_size_per_gpu`: the integration fills neither (only "
        "\"auto\" values are filled, accelerate `src/accelerate/accelerator.py:2172-2198`), so DeepSpeed derives "
        "the micro batch as train_batch_size / (gradient_accumulation_steps x processes) instead of taking "
        "the dataloader's batch size (" +
            ds_cite("deepspeed/runtime/config.py:930-972") +
            "); under the HF Trainer a train_batch_size that is not processes x per-device batch x "
            "accumulation is rejected when train() starts. Add `\"train_micro_batch_size_per_gpu\": \"auto\"` "
            "and set `train_batch_size` to \"auto\".",
        {}, rule::Severity::Warning);
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_missing_micro_batch_size() {
  return std::make_unique<MissingMicroBatchSize>();
}

}  // namespace lint::rules
