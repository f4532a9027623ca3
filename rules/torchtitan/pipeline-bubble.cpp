// TT006: fewer pipeline microbatches than pipeline stages: part of every step is a bubble.
#include <algorithm>
#include <cctype>
#include <string>

#include "rules/torchtitan/torchtitan_support.hpp"

namespace lint::rules {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Stages per pipeline rank of a schedule without `pipeline_parallel_layers_per_stage`: 1 for single-stage
/// schedules, 2 for looped ones (torchtitan v0.2.2 torchtitan/distributed/pipeline_parallel.py:111-115);
/// 0 when the schedule is not one of torch's known names.
int stages_per_rank(const std::string& schedule) {
  const std::string s = lower(schedule);
  if (s == "1f1b" || s == "gpipe") return 1;
  if (s == "interleaved1f1b" || s == "loopedbfs" || s == "interleavedzerobubble" || s == "zbvzerobubble" ||
      s == "dualpipev")
    return 2;
  return 0;
}

class PipelineBubble final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = torchtitan::config_of(l);
    if (doc == nullptr) return;
    if (torchtitan::command_overrides(l, "training") || torchtitan::command_overrides(l, "parallelism")) return;
    const auto pp = torchtitan::int_option(*doc, "parallelism", "pipeline_parallel_degree", 1);
    if (!pp.value || *pp.value <= 1) return;
    const parse::Node* par = torchtitan::table(*doc, "parallelism");
    // Stage counts that depend on the model's layer count or a CSV schedule are not known here.
    if (par->find("pipeline_parallel_layers_per_stage") != nullptr ||
        par->find("pipeline_parallel_schedule_csv") != nullptr || par->find("module_fqns_per_model_part") != nullptr)
      return;
    std::string schedule = "1F1B";
    if (const parse::Node* s = par->find("pipeline_parallel_schedule")) {
      if (s->kind != parse::NodeKind::String) return;
      schedule = s->text;
    }
    const int per_rank = stages_per_rank(schedule);
    if (per_rank == 0) return;
    const auto local = torchtitan::int_option(*doc, "training", "local_batch_size", 8);
    const auto micro = torchtitan::int_option(*doc, "parallelism", "pipeline_parallel_microbatch_size", 1);
    if (!local.value || !micro.value || *local.value <= 0 || *micro.value <= 0) return;
    if (*local.value % *micro.value != 0) return;  // torchtitan raises ValueError for this first
    const std::int64_t microbatches = *local.value / *micro.value;
    const std::int64_t stages = *pp.value * per_rank;
    if (microbatches >= stages) return;
    const parse::Node* at = micro.node != nullptr ? micro.node : local.node != nullptr ? local.node : pp.node;
    ctx.report(doc->path(), at->region,
               "Each step feeds " + std::to_string(microbatches) + " microbatch" + (microbatches == 1 ? "" : "es") +
                   " (local_batch_size " + std::to_string(*local.value) + " / pipeline_parallel_microbatch_size " +
                   std::to_string(*micro.value) + ") through " + std::to_string(stages) + " pipeline stages (" +
                   std::to_string(*pp.value) + " ranks x " + std::to_string(per_rank) + " with schedule " + schedule +
                   "): with fewer microbatches than stages, stages sit idle for much of every step (torchtitan "
                   "warns \"may result in a bubble in the pipeline\"). Use at least " +
                   std::to_string(stages) + " microbatches: a larger local_batch_size or a smaller microbatch size.");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_pipeline_bubble() {
  return std::make_unique<PipelineBubble>();
}

}  // namespace lint::rules
