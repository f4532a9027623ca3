// HF010: a TRL GRPOConfig whose generation batch (per_device_train_batch_size x processes x steps_per_generation)
// is not a multiple of num_generations, or with num_generations below 2: GRPOConfig.__post_init__ raises
// (trl trl/trainer/grpo_config.py:1075-1094, :1108-1120).
#include <optional>
#include <string>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// An explicit integer keyword; `fallback` when absent; nullopt when present but not a known integer.
std::optional<std::int64_t> int_kw(const model::PyCall& c, std::string_view key, std::optional<std::int64_t> fallback) {
  const model::PyArg* a = c.keyword(key);
  if (a == nullptr) return fallback;
  if (a->value.kind == model::ValueKind::Int) return a->value.integer;
  if (a->value.kind == model::ValueKind::None) return std::nullopt;  // None: TRL derives it
  return std::nullopt;
}

class GrpoGenerationBatchNotDivisible final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      for (const model::PyCall& c : d->python->calls) {
        if (c.name != "GRPOConfig" || c.has_unresolved_unpacking) continue;
        const model::PyArg* gen_arg = c.keyword("num_generations");
        const std::optional<std::int64_t> gens = int_kw(c, "num_generations", 8);  // grpo_config.py:474-475
        if (!gens) continue;
        const source::Region at = gen_arg != nullptr ? gen_arg->region : c.callee_region;
        if (*gens < 2) {
          ctx.report(d->path(), at,
                     "GRPO needs at least 2 generations per prompt to compute advantages; `num_generations=" +
                         std::to_string(*gens) + "` makes GRPOConfig raise ValueError.");
          continue;
        }
        const std::optional<std::int64_t> world = l.world_size();
        if (!world || *world < 1) continue;
        // TrainingArguments defaults: per_device_train_batch_size 8, gradient_accumulation_steps 1.
        const std::optional<std::int64_t> per_device = int_kw(c, "per_device_train_batch_size", 8);
        const std::optional<std::int64_t> accum = int_kw(c, "gradient_accumulation_steps", 1);
        const bool has_gbs = c.keyword("generation_batch_size") != nullptr;
        const bool has_spg = c.keyword("steps_per_generation") != nullptr;
        if (!per_device || !accum || (has_gbs && has_spg)) continue;
        std::int64_t generation_batch = 0;
        std::string how;
        const std::string base = "per_device_train_batch_size (" + std::to_string(*per_device) + ") x processes (" +
                                 std::to_string(*world) + ")";
        if (has_gbs) {
          const std::optional<std::int64_t> gbs = int_kw(c, "generation_batch_size", std::nullopt);
          if (!gbs) continue;
          generation_batch = *gbs;
          how = "generation_batch_size (" + std::to_string(*gbs) + ")";
        } else {
          const std::optional<std::int64_t> spg = has_spg ? int_kw(c, "steps_per_generation", std::nullopt) : accum;
          if (!spg) continue;
          generation_batch = *per_device * *world * *spg;
          how = "the generation batch, " + base + " x " +
                (has_spg ? "steps_per_generation (" : "steps_per_generation (= gradient_accumulation_steps, ") +
                std::to_string(*spg) + ") = " + std::to_string(generation_batch) + ",";
        }
        if (generation_batch <= 0 || generation_batch % *gens == 0) continue;
        ctx.report(d->path(), at,
                   "GRPO samples `num_generations` (" + std::to_string(*gens) + ") completions per prompt, and " + how +
                       " is not a multiple of it: GRPOConfig raises ValueError (\"generation_batch_size ... must be "
                       "divisible by num_generations\"). Make the generation batch a multiple of num_generations "
                       "(per-device batch, gradient accumulation or processes) or pick a divisor.",
                   related_to(l.get(model::keys::kWorldSize) != nullptr ? l.get(model::keys::kWorldSize)->decided_by
                                                                        : nullptr,
                              "The number of processes comes from here."));
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_grpo_generation_batch_not_divisible() {
  return std::make_unique<GrpoGenerationBatchNotDivisible>();
}

}  // namespace lint::rules
