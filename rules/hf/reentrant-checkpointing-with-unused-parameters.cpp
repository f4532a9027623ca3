// HF013: reentrant activation checkpointing (`use_reentrant: True`) together with DDP's
// `find_unused_parameters=True` in a multi-process data-parallel launch. The reentrant checkpoint runs the layer's
// forward without autograd, so DDP marks the layer's parameters unused (ready) when the forward ends and again when
// the recomputation in backward produces their gradients: "Expected to mark a variable ready only once". torch
// documents the combination as unsupported (torch/nn/parallel/distributed.py, DistributedDataParallel's note on
// gradient checkpointing, since pytorch#106985). Before transformers 5.0 the default of
// `gradient_checkpointing_enable()` (and so of the Trainer's `gradient_checkpointing=True`) was reentrant
// (transformers#28538 wrote `{"use_reentrant": True}`; transformers#43203 made it False for 5.0, the release TRL
// tests for: trl v1.9.0 trl/trainer/dpo_trainer.py:854-860), so with the project's transformers pinned below 5.0 the
// default counts as reentrant.
#include <optional>
#include <string>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/versions.hpp"
#include "rules/hf/trainer_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

struct Found {
  std::string path;
  source::Region region;
  std::string spelled;
};

bool reentrant_dict(const model::Value& v) {
  return trainer::use_reentrant(v) == true;
}

bool reentrant_json(const std::string& text) {
  return trainer::use_reentrant_json(text) == true;
}

bool truthy_text(const std::string& t) {
  return model::parse_truth(t).value_or(false);
}

struct Facts {
  std::optional<Found> reentrant;    ///< use_reentrant True, where
  std::optional<Found> unused;       ///< find_unused_parameters True, where
  bool checkpointing = false;        ///< gradient checkpointing is switched on
  bool checkpointing_off = false;    ///< explicitly off in the Trainer's arguments
  std::optional<Found> switched_on;  ///< where checkpointing is switched on (for the default's finding)
  bool kwargs_written = false;       ///< gradient_checkpointing_kwargs written anywhere (any content)
  bool trl = false;                  ///< a TRL trainer or config, which sets its own default
};

void python_facts(const model::Document& doc, Facts& f) {
  for (const model::PyCall& c : doc.python->calls) {
    if (c.callee.starts_with("trl")) f.trl = true;
    if (model::is_training_arguments_class(c.name)) {
      if (const model::PyArg* a = c.keyword("gradient_checkpointing_kwargs")) {
        f.kwargs_written |= a->value.kind != model::ValueKind::None || trainer::names_reentrant(a->value);
        if (reentrant_dict(a->value))
          f.reentrant = Found{doc.path(), a->region, "gradient_checkpointing_kwargs={\"use_reentrant\": True}"};
      }
      if (const model::PyArg* a = c.keyword("ddp_find_unused_parameters");
          a && a->value.kind == model::ValueKind::Bool && a->value.boolean)
        f.unused = Found{doc.path(), a->region, "ddp_find_unused_parameters=True"};
      if (const model::PyArg* a = c.keyword("gradient_checkpointing"); a && a->value.kind == model::ValueKind::Bool) {
        f.checkpointing |= a->value.boolean;
        f.checkpointing_off |= !a->value.boolean;
        if (a->value.boolean) f.switched_on = Found{doc.path(), a->region, "gradient_checkpointing=True"};
      } else if (a == nullptr && c.name.ends_with("Config")) {
        f.checkpointing = true;  // TRL's configs turn gradient checkpointing on by default
      }
    } else if (c.name == "gradient_checkpointing_enable") {
      f.checkpointing = true;
      f.switched_on = Found{doc.path(), c.region, "gradient_checkpointing_enable()"};
      if (!c.args.empty() || c.has_unresolved_unpacking) f.kwargs_written = true;
      if (const model::PyArg* a = c.keyword("gradient_checkpointing_kwargs"); a && reentrant_dict(a->value))
        f.reentrant = Found{doc.path(), a->region, "gradient_checkpointing_kwargs={\"use_reentrant\": True}"};
    } else if (c.name == "DistributedDataParallelKwargs" || c.name == "DistributedDataParallel") {
      if (const model::PyArg* a = c.keyword("find_unused_parameters");
          a && a->value.kind == model::ValueKind::Bool && a->value.boolean)
        f.unused = Found{doc.path(), a->region, c.name + "(find_unused_parameters=True)"};
    }
  }
}

class ReentrantCheckpointingWithUnusedParameters final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    // Data parallel over several processes: FSDP and DeepSpeed do not use DDP's reducer.
    const auto ws = model::query::world_size(l);
    if (!ws || *ws < 2 || l.fsdp_enabled() || model::deepspeed_state(l).on) return;
    const model::Document* script = model::launch_script(l);
    // `trl sft|dpo|...` runs TRL's own script, which parses a TRL config (gradient checkpointing on by default).
    const bool trl_cli = l.command && l.command->subcommand.starts_with("trl ");
    if (script == nullptr && !trl_cli) return;
    Facts f;
    f.checkpointing = trl_cli;
    if (script != nullptr) python_facts(*script, f);
    // The Trainer's arguments on the command line and in a recipe YAML (HfArgumentParser / TrlParser).
    bool parser = trl_cli;
    if (script != nullptr) {
      for (const model::PyCall& c : script->python->calls)
        parser |= c.name == "HfArgumentParser" || c.name == "TrlParser";
    }
    if (parser) {
      for (const model::ScriptFlag& s : model::script_flags(l)) {
        if (s.value && !s.value->known) continue;
        const std::string v = s.value ? s.value->text : "true";
        const std::string spelled = s.from_yaml ? s.name + ": " + v : "--" + s.name + " " + v;
        if (s.name == "gradient_checkpointing") {
          f.checkpointing = truthy_text(v);
          f.checkpointing_off = !truthy_text(v);
          if (f.checkpointing) f.switched_on = Found{s.path, s.region, spelled};
        } else if (s.name == "ddp_find_unused_parameters" && truthy_text(v)) {
          f.unused = Found{s.path, s.region, spelled};
        } else if (s.name == "gradient_checkpointing_kwargs") {
          f.kwargs_written = true;
          if (reentrant_json(v)) f.reentrant = Found{s.path, s.region, spelled};
        }
      }
      for (const model::Document* d : l.documents) {
        if (d->kind != model::DocKind::TrainerArgsConfig || d->root_map() == nullptr) continue;
        const parse::Entry* e = d->root_map()->find_entry("gradient_checkpointing_kwargs");
        if (e != nullptr) f.kwargs_written = true;
        if (e != nullptr && reentrant_dict(model::value_of(e->value)))
          f.reentrant = Found{d->path(), e->key.region, "gradient_checkpointing_kwargs: {use_reentrant: true}"};
      }
    }
    if (!f.unused || !f.checkpointing || f.checkpointing_off) return;
    if (!f.reentrant) {
      // The default: reentrant before transformers 5.0 (known from the project's pins), unless the launch writes
      // its own kwargs or goes through TRL, whose trainers default to non-reentrant for older transformers.
      const model::TargetVersions& tv = model::target_versions();
      if (f.kwargs_written || f.trl || trl_cli || !f.switched_on || !tv.before("transformers", model::Version{5, 0, 0}))
        return;
      const model::AssumedVersion& tf = tv.get("transformers");
      ctx.report(
          f.switched_on->path, f.switched_on->region,
          "Gradient checkpointing (`" + f.switched_on->spelled + "`) with DDP's `" + f.unused->spelled +
              "` in a launch of " + std::to_string(*ws) + " data-parallel processes, with transformers " +
              tf.display() + " (" + tf.origin +
              "): before transformers 5.0 `gradient_checkpointing_enable()` checkpoints reentrantly by "
              "default (huggingface/transformers#28538; non-reentrant from 5.0, #43203), so DDP marks the "
              "checkpointed parameters ready twice and fails with \"Expected to mark a variable ready only "
              "once\" (torch does not support reentrant checkpointing with `find_unused_parameters=True`, "
              "the DistributedDataParallel note on gradient checkpointing). Pass "
              "`gradient_checkpointing_kwargs={\"use_reentrant\": False}`, or drop `find_unused_parameters`.",
          {rule::RelatedLocation{f.unused->path, f.unused->region, "find_unused_parameters is turned on here."}});
      return;
    }
    ctx.report(f.reentrant->path, f.reentrant->region,
               "Reentrant activation checkpointing (`" + f.reentrant->spelled + "`) with DDP's `" + f.unused->spelled +
                   "` in a launch of " + std::to_string(*ws) +
                   " data-parallel processes: the checkpointed layers run their forward without autograd, so DDP "
                   "marks their parameters unused when the forward ends and again when backward recomputes them, "
                   "and fails with \"Expected to mark a variable ready only once\". torch does not support reentrant "
                   "checkpointing with `find_unused_parameters=True` (the DistributedDataParallel note on gradient "
                   "checkpointing, torch/nn/parallel/distributed.py). Use `use_reentrant: False` (transformers' "
                   "default), or drop `find_unused_parameters`.",
               {rule::RelatedLocation{f.unused->path, f.unused->region, "find_unused_parameters is turned on here."}});
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_reentrant_checkpointing_with_unused_parameters() {
  return std::make_unique<ReentrantCheckpointingWithUnusedParameters>();
}

}  // namespace lint::rules
