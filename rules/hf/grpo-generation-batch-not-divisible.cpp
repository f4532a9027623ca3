// HF010: a TRL GRPOConfig whose generation batch (per_device_train_batch_size x processes x steps_per_generation)
// is not a multiple of num_generations, or with num_generations below 2: GRPOConfig.__post_init__ raises
// (trl trl/trainer/grpo_config.py:1075-1094, :1108-1120). The batch the check divides moved between TRL releases
// (the project's pinned TRL decides): none before 0.15; per_device_train_batch_size x processes in 0.15-0.16
// (GRPOTrainer.__init__, trl v0.15.0 trl/trainer/grpo_trainer.py:341-349); x gradient_accumulation_steps in 0.17
// (trl v0.17.0 trl/trainer/grpo_trainer.py:597-607); the generation batch (x steps_per_generation, by default the
// accumulation steps) from 0.18 (trl v0.18.0 trl/trainer/grpo_config.py:516-540).
#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/versions.hpp"
#include "lint/parse/integer.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// One GRPO configuration: a `GRPOConfig(...)` call, or the arguments of a script that parses GRPOConfig with
/// TrlParser (`trl grpo`, a recipe YAML, the command line).
struct GrpoArgs {
  std::string path;
  source::Region where;  ///< where to report when num_generations is not written
  /// An explicit integer argument: absent -> `fallback`; present but not a known integer -> nullopt.
  std::function<std::optional<std::int64_t>(std::string_view, std::optional<std::int64_t>)> int_arg;
  std::function<bool(std::string_view)> has;
  std::function<std::pair<std::string, source::Region>(std::string_view)> site;  ///< path and region of an argument
};

void check_grpo(const model::Launch& l, const GrpoArgs& g, rule::RuleContext& ctx) {
  const std::optional<std::int64_t> gens = g.int_arg("num_generations", 8);  // grpo_config.py:474-475
  if (!gens) return;
  const auto [gen_path, gen_region] =
      g.has("num_generations") ? g.site("num_generations") : std::make_pair(g.path, g.where);
  if (*gens < 2) {
    ctx.report(gen_path, gen_region,
               "GRPO needs at least 2 generations per prompt to compute advantages; `num_generations=" +
                   std::to_string(*gens) + "` makes GRPOConfig raise ValueError.");
    return;
  }
  const std::optional<std::int64_t> world = l.world_size();
  if (!world || *world < 1) return;
  // TrainingArguments defaults: per_device_train_batch_size 8, gradient_accumulation_steps 1.
  const std::optional<std::int64_t> per_device = g.int_arg("per_device_train_batch_size", 8);
  const std::optional<std::int64_t> accum = g.int_arg("gradient_accumulation_steps", 1);
  if (!per_device || !accum) return;
  const std::string base =
      "per_device_train_batch_size (" + std::to_string(*per_device) + ") x processes (" + std::to_string(*world) + ")";
  const auto related =
      related_to(l.get(model::keys::kWorldSize) != nullptr ? l.get(model::keys::kWorldSize)->decided_by : nullptr,
                 "The number of processes comes from here.");
  // Releases before 0.18 check in GRPOTrainer.__init__ and have no generation_batch_size / steps_per_generation.
  const model::TargetVersions& tv = model::target_versions();
  const model::AssumedVersion& trl = tv.get("trl");
  const std::string trl_seen = "TRL " + trl.display() + " (" + trl.origin + ")";
  if (tv.before("trl", model::Version{0, 15, 0})) return;  // GRPO had no batch check yet
  if (tv.before("trl", model::Version{0, 18, 0})) {
    const bool v15 = tv.before("trl", model::Version{0, 17, 0});
    const bool v17 = tv.at_least("trl", model::Version{0, 17, 0});
    if (!v15 && !v17) return;  // the pin spans 0.16 and 0.17, which divide different batches
    const std::int64_t batch = *per_device * *world * (v15 ? 1 : *accum);
    if (batch % *gens == 0) return;
    const std::string what = v15 ? "the global train batch, " + base + " = " + std::to_string(batch) + ","
                                 : "the effective train batch, " + base + " x gradient_accumulation_steps (" +
                                       std::to_string(*accum) + ") = " + std::to_string(batch) + ",";
    ctx.report(gen_path, gen_region,
               "GRPO samples `num_generations` (" + std::to_string(*gens) + ") completions per prompt, and " + what +
                   " is not a multiple of it: with " + trl_seen + " GRPOTrainer raises ValueError (\"The " +
                   (v15 ? "global" : "effective") +
                   " train batch size ... must be evenly divisible by the number of generations per prompt\"; " +
                   (v15 ? "trl v0.15.0 trl/trainer/grpo_trainer.py:341-349"
                        : "trl v0.17.0 trl/trainer/grpo_trainer.py:597-607") +
                   "). Make the batch a multiple of num_generations or pick a divisor" +
                   (v15 ? " (gradient accumulation does not count before TRL 0.17)." : "."),
               related);
    return;
  }
  if (!tv.at_least("trl", model::Version{0, 18, 0})) return;  // the pin spans releases with different checks
  const bool has_gbs = g.has("generation_batch_size");
  const bool has_spg = g.has("steps_per_generation");
  if (has_gbs && has_spg) return;
  std::int64_t generation_batch = 0;
  std::string how;
  if (has_gbs) {
    const std::optional<std::int64_t> gbs = g.int_arg("generation_batch_size", std::nullopt);
    if (!gbs) return;
    generation_batch = *gbs;
    how = "generation_batch_size (" + std::to_string(*gbs) + ")";
  } else {
    const std::optional<std::int64_t> spg = has_spg ? g.int_arg("steps_per_generation", std::nullopt) : accum;
    if (!spg) return;
    generation_batch = *per_device * *world * *spg;
    how = "the generation batch, " + base + " x " +
          (has_spg ? "steps_per_generation (" : "steps_per_generation (= gradient_accumulation_steps, ") +
          std::to_string(*spg) + ") = " + std::to_string(generation_batch) + ",";
  }
  if (generation_batch <= 0 || generation_batch % *gens == 0) return;
  ctx.report(gen_path, gen_region,
             "GRPO samples `num_generations` (" + std::to_string(*gens) + ") completions per prompt, and " + how +
                 " is not a multiple of it: GRPOConfig raises ValueError (\"generation_batch_size ... must be "
                 "divisible by num_generations\"). Make the generation batch a multiple of num_generations "
                 "(per-device batch, gradient accumulation or processes) or pick a divisor.",
             related);
}

/// Whether the script parses a GRPOConfig from its arguments (TrlParser / HfArgumentParser with GRPOConfig), or the
/// launch is `trl grpo`, whose script does.
bool parses_grpo_config(const model::Launch& l) {
  if (l.command && l.command->subcommand == "trl grpo") return true;
  const model::Document* script = model::launch_script(l);
  if (script == nullptr) return false;
  for (const model::PyCall& c : script->python->calls) {
    if (c.name == "GRPOConfig") return false;  // built in the script: checked as a call
  }
  for (const model::PyCall& c : script->python->calls) {
    if (c.name != "TrlParser" && c.name != "HfArgumentParser") continue;
    for (const model::PyArg& a : c.args) {
      auto mentions = [](const model::Value& x) { return x.text == "GRPOConfig" || x.text.ends_with(".GRPOConfig"); };
      if (mentions(a.value) || std::any_of(a.value.items.begin(), a.value.items.end(), mentions)) return true;
    }
  }
  return false;
}

class GrpoGenerationBatchNotDivisible final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      for (const model::PyCall& c : d->python->calls) {
        if (c.name != "GRPOConfig" || c.has_unresolved_unpacking) continue;
        GrpoArgs g;
        g.path = d->path();
        g.where = c.callee_region;
        g.int_arg = [&c](std::string_view key, std::optional<std::int64_t> fallback) -> std::optional<std::int64_t> {
          const model::PyArg* a = c.keyword(key);
          if (a == nullptr) return fallback;
          if (a->value.kind == model::ValueKind::Int) return a->value.integer;
          return std::nullopt;  // None: TRL derives it; anything else is not known
        };
        g.has = [&c](std::string_view key) { return c.keyword(key) != nullptr; };
        g.site = [&c, d](std::string_view key) { return std::make_pair(d->path(), c.keyword(key)->region); };
        check_grpo(l, g, ctx);
      }
    }
    if (!parses_grpo_config(l)) return;
    // The script's arguments: a recipe YAML (`--config`) and the command line over it.
    const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
    for (const model::ScriptFlag& f : flags) {
      if (!f.from_yaml && f.name == "config") {
        const bool bound = std::any_of(flags.begin(), flags.end(), [](const auto& x) { return x.from_yaml; });
        if (!bound) return;  // a recipe that is not part of the launch may set more
      }
    }
    if (l.command_document == nullptr) return;
    GrpoArgs g;
    g.path = l.command_document->path();
    g.where = l.command->script ? l.command->script->region : l.command_region;
    g.int_arg = [&flags](std::string_view key, std::optional<std::int64_t> fallback) -> std::optional<std::int64_t> {
      const model::ScriptFlag* f = model::find_script_flag(flags, key);
      if (f == nullptr) return fallback;
      if (!f->value || !f->value->known) return std::nullopt;
      return parse::parse_int(f->value->text);
    };
    g.has = [&flags](std::string_view key) { return model::find_script_flag(flags, key) != nullptr; };
    g.site = [&flags](std::string_view key) {
      const model::ScriptFlag* f = model::find_script_flag(flags, key);
      return std::make_pair(f->path, f->region);
    };
    check_grpo(l, g, ctx);
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_grpo_generation_batch_not_divisible() {
  return std::make_unique<GrpoGenerationBatchNotDivisible>();
}

}  // namespace lint::rules
