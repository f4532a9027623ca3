// HF008: a TrainingArguments argument that transformers no longer has (`evaluation_strategy`, renamed `eval_strategy`
// in 4.41 and since removed): a TypeError for a keyword in the script, a ValueError from HfArgumentParser for a
// command-line flag or a LLaMA-Factory config key.
#include <array>
#include <string>
#include <string_view>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/versions.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

struct Removed {
  std::string_view name;
  std::string_view history;      ///< what happened to it
  std::string_view replacement;  ///< what to write instead
  /// The first transformers release known not to have it: the rule is silent when the project pins (or allows) an
  /// older one. For the two fsdp_* fields the release that dropped them is not established here, so the one known
  /// (5.17, the default target) is used.
  model::Version gone_from;
};
// transformers v5.17.0 src/transformers/training_args.py defines none of these fields.
constexpr std::array<Removed, 3> kRemoved = {{
    // Gone in transformers 4.52 (removed by huggingface/transformers#36946, March 2025); 4.41-4.50 accept it with a
    // FutureWarning.
    {"evaluation_strategy",
     "renamed `eval_strategy` in transformers 4.41, the old name since removed",
     "`eval_strategy`",
     {4, 52, 0}},
    {"fsdp_transformer_layer_cls_to_wrap",
     "deprecated in transformers 4.x for the `fsdp_config` key, since removed",
     "`fsdp_config` with `transformer_layer_cls_to_wrap`",
     {5, 17, 0}},
    {"fsdp_min_num_params",
     "deprecated in transformers 4.x for the `fsdp_config` key, since removed",
     "`fsdp_config` with `min_num_params`",
     {5, 17, 0}},
}};

/// With an older transformers pinned than the release `r` is known to be gone from, or a pin that allows one, the
/// rule is silent.
bool removed_at_target(const Removed& r) {
  return model::target_versions().at_least("transformers", r.gone_from);
}

const Removed* removed(std::string_view name) {
  for (const Removed& r : kRemoved) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

std::string message_for(const Removed& r, std::string_view failure) {
  return "`" + std::string(r.name) + "` is no longer a TrainingArguments argument (" + std::string(r.history) +
         "): " + std::string(failure) + " Use " + std::string(r.replacement) + ".";
}

class RemovedTrainingArgument final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind == model::DocKind::PythonScript && doc.python) {
      for (const model::PyCall& c : doc.python->calls) {
        if (!model::is_training_arguments_class(c.name)) continue;
        for (const model::PyArg& a : c.args) {
          const Removed* r = removed(a.name);
          if (r == nullptr || !removed_at_target(*r)) continue;
          ctx.report(doc.path(), a.name_region,
                     message_for(*r, c.name + "(...) raises TypeError: got an unexpected keyword argument '" +
                                         std::string(r->name) + "'."));
        }
      }
    }
    if (doc.kind == model::DocKind::LlamaFactoryConfig) {
      const parse::Node* root = doc.root_map();
      if (root == nullptr) return;
      for (const parse::Entry& e : root->entries) {
        const Removed* r = removed(e.key.text);
        if (r == nullptr || !removed_at_target(*r)) continue;
        ctx.report(doc.path(), e.key.region,
                   message_for(*r,
                               "LLaMA-Factory rejects keys no argument class takes (ValueError: Some keys are "
                               "not used by the HfArgumentParser)."));
      }
    }
  }

  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command_document == nullptr || l.command->script_args.empty()) return;
    const model::Document* script = nullptr;
    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      if (script != nullptr) return;  // several Python files: which one parses the command line is not known
      script = d;
    }
    if (script == nullptr) return;
    const model::PythonFacts& py = *script->python;
    if (py.calls_named("HfArgumentParser").empty() && py.calls_named("TrlParser").empty()) return;
    // A script that keeps unknown flags, or defines the old name in its own dataclasses, accepts the flag.
    for (const model::PyCall* p : py.calls_named("parse_args_into_dataclasses")) {
      if (p->keyword("return_remaining_strings") != nullptr || p->has_unresolved_unpacking) return;
    }
    if (!py.calls_named("parse_known_args").empty()) return;
    for (const parse::ScriptArg& a : parse::script_arguments(l.command->script_args)) {
      const Removed* r = removed(a.name);
      if (r == nullptr || !removed_at_target(*r) || script->source->text().find(r->name) != std::string::npos) continue;
      ctx.report(l.command_document->path(), a.region,
                 message_for(*r,
                             "HfArgumentParser raises ValueError: Some specified arguments are not used by the "
                             "HfArgumentParser."),
                 {rule::RelatedLocation{
                     script->path(),
                     py.calls_named(py.calls_named("HfArgumentParser").empty() ? "TrlParser" : "HfArgumentParser")
                         .front()
                         ->region,
                     "The script's arguments are parsed here."}});
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_removed_training_argument() {
  return std::make_unique<RemovedTrainingArgument>();
}

}  // namespace lint::rules
