// DS014: a PEFT model (frozen base weights) trained under DeepSpeed ZeRO-3 with non-reentrant activation
// checkpointing, on a DeepSpeed older than 0.19.3. The checkpoint's recomputation fires ZeRO-3's forward hooks again,
// and the post-hook re-partitions each parameter in place (`param.data = torch.empty(0)`,
// deepspeed/runtime/zero/partition_parameters.py); torch's non-reentrant checkpoint keeps tensors that do not require
// grad undetached (torch 2.11 torch/utils/checkpoint.py:1084, `x.detach() if x.requires_grad else x`), so a frozen
// weight saved during the recomputation shrinks to shape [0] and the metadata check in backward raises
// `CheckpointError: Recomputed values for the following tensors have different metadata than during the forward
// pass`. Measured (docs/memory.md, run 14): DeepSpeed 0.14.5, torch 2.11, transformers 5.17, peft 0.21 raise it on a
// LoRA Llama under ZeRO-3 with 8 ranks. DeepSpeed 0.19.3 keeps frozen parameters gathered during a recomputation
// (deepspeedai/DeepSpeed#8148, commit a31eb3165); TRL's trainers force `use_reentrant=True` in this configuration
// (SFTTrainer and DPOTrainer from TRL 0.28.0, huggingface/trl#4951; the others from 1.9.0, #6356).
#include <optional>
#include <string>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/query.hpp"
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

struct Facts {
  bool peft = false;
  bool trl = false;
  std::optional<Found> switched_on;    ///< where gradient checkpointing is turned on
  bool checkpointing_off = false;      ///< turned off explicitly
  std::optional<Found> non_reentrant;  ///< `use_reentrant` False, where
  bool reentrant = false;              ///< `use_reentrant` True written
  bool kwargs_unknown = false;         ///< kwargs that may set `use_reentrant`, not statically known
};

void kwargs_fact(const model::Value& v, const std::string& path, source::Region r, Facts& f) {
  const std::optional<bool> re = trainer::use_reentrant(v);
  if (re == true) f.reentrant = true;
  if (re == false) f.non_reentrant = Found{path, r, "gradient_checkpointing_kwargs={\"use_reentrant\": False}"};
  if (!re && trainer::names_reentrant(v)) f.kwargs_unknown = true;
}

void python_facts(const model::Document& doc, Facts& f) {
  f.peft = trainer::uses_peft(*doc.python);
  for (const model::PyCall& c : doc.python->calls) {
    if (c.callee.starts_with("trl")) f.trl = true;
    if (model::is_training_arguments_class(c.name)) {
      if (c.has_unresolved_unpacking) f.kwargs_unknown = true;
      if (const model::PyArg* a = c.keyword("gradient_checkpointing_kwargs"))
        kwargs_fact(a->value, doc.path(), a->region, f);
      if (const model::PyArg* a = c.keyword("gradient_checkpointing"); a && a->value.kind == model::ValueKind::Bool) {
        if (a->value.boolean)
          f.switched_on = Found{doc.path(), a->region, "gradient_checkpointing=True"};
        else
          f.checkpointing_off = true;
      }
    } else if (c.name == "gradient_checkpointing_enable") {
      f.switched_on = Found{doc.path(), c.region, "gradient_checkpointing_enable()"};
      if (c.has_unresolved_unpacking) f.kwargs_unknown = true;
      if (const model::PyArg* a = c.keyword("gradient_checkpointing_kwargs"))
        kwargs_fact(a->value, doc.path(), a->region, f);
    }
  }
}

/// The Trainer's arguments on the command line or in a recipe YAML, for scripts that parse them.
void flag_facts(const model::Launch& l, Facts& f) {
  for (const model::ScriptFlag& s : model::script_flags(l)) {
    if (s.value && !s.value->known) {
      if (s.name == "gradient_checkpointing_kwargs") f.kwargs_unknown = true;
      continue;
    }
    const std::string v = s.value ? s.value->text : "true";
    const std::string spelled = s.from_yaml ? s.name + ": " + v : "--" + s.name + " " + v;
    if (s.name == "gradient_checkpointing") {
      if (model::parse_truth(v).value_or(false))
        f.switched_on = Found{s.path, s.region, spelled};
      else
        f.checkpointing_off = true;
    } else if (s.name == "use_peft" && model::parse_truth(v).value_or(false)) {
      f.peft = true;
    } else if (s.name == "gradient_checkpointing_kwargs") {
      const std::optional<bool> re = trainer::use_reentrant_json(v);
      if (re == true) f.reentrant = true;
      if (re == false) f.non_reentrant = Found{s.path, s.region, spelled};
    }
  }
  for (const model::Document* d : l.documents) {
    if (d->kind != model::DocKind::TrainerArgsConfig || d->root_map() == nullptr) continue;
    if (const parse::Entry* e = d->root_map()->find_entry("gradient_checkpointing_kwargs"))
      kwargs_fact(model::value_of(e->value), d->path(), e->key.region, f);
  }
}

class Zero3PeftNonReentrantCheckpointing final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (!ds.on || ds.zero_stage != 3) return;
    // Any number of processes: a single process under ZeRO-3 partitions its parameters too (lib oracle
    // `ds14-one-process` raises), so the world size is not needed and an unknown one does not silence the rule.
    const auto ws = model::query::world_size(l);
    // Fixed in DeepSpeed 0.19.3: only a project known to be on an older DeepSpeed fails.
    const model::TargetVersions& tv = model::target_versions();
    if (!tv.before("deepspeed", model::Version{0, 19, 3})) return;
    const model::Document* script = model::launch_script(l);
    const bool trl_cli = l.command && l.command->subcommand.starts_with("trl ");
    if (script == nullptr && !trl_cli) return;
    Facts f;
    f.trl = trl_cli;
    if (script != nullptr) python_facts(*script, f);
    if (trl_cli || (script != nullptr && trainer::parses_trainer_flags(*script->python))) flag_facts(l, f);
    if (!f.peft || !f.switched_on || f.checkpointing_off || f.reentrant || f.kwargs_unknown) return;
    // TRL's trainers force reentrant checkpointing for PEFT under ZeRO-3 from 0.28.0.
    if (f.trl && !tv.before("trl", model::Version{0, 28, 0})) return;
    const model::AssumedVersion& dsv = tv.get("deepspeed");
    std::string how;
    const Found* at = nullptr;
    if (f.non_reentrant) {
      at = &*f.non_reentrant;
      how = "Non-reentrant activation checkpointing (`" + at->spelled + "`)";
    } else {
      // Not written: transformers 5.0 made non-reentrant the default of gradient_checkpointing_enable()
      // (huggingface/transformers#43203); before it the default was reentrant, and TRL's defaults varied.
      if (f.trl || !tv.at_least("transformers", model::Version{5, 0, 0})) return;
      at = &*f.switched_on;
      const model::AssumedVersion& tf = tv.get("transformers");
      how = "Gradient checkpointing (`" + at->spelled + "`), non-reentrant by default in transformers " + tf.display() +
            " (from 5.0, huggingface/transformers#43203),";
    }
    std::vector<rule::RelatedLocation> related;
    if (ds.stage_site) related.push_back({ds.stage_site->path, ds.stage_site->region, "ZeRO-3 is chosen here."});
    ctx.report(at->path, at->region,
               how + " on a PEFT model under DeepSpeed ZeRO-3" +
                   (ws ? " with " + std::to_string(*ws) + (*ws == 1 ? " process" : " processes") : std::string()) +
                   ", DeepSpeed " + dsv.display() + " (" + dsv.origin +
                   "): the recomputation in backward re-partitions the frozen base weights that torch's "
                   "non-reentrant checkpoint saved, and backward fails with \"CheckpointError: Recomputed values "
                   "for the following tensors have different metadata than during the forward pass\" (shape [0]). "
                   "DeepSpeed 0.19.3 fixes it (deepspeedai/DeepSpeed#8148). Upgrade DeepSpeed, or pass "
                   "`gradient_checkpointing_kwargs={\"use_reentrant\": True}`.",
               related);
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_zero3_peft_non_reentrant_checkpointing() {
  return std::make_unique<Zero3PeftNonReentrantCheckpointing>();
}

}  // namespace lint::rules
