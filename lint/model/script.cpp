#include "lint/model/script.hpp"

#include <array>
#include <string_view>

#include "lint/model/accelerate/launcher.hpp"
#include "lint/model/accelerate/schema.hpp"
#include "lint/model/precedence.hpp"
#include "lint/model/torch/torch.hpp"
#include "lint/model/trainer/trainer.hpp"

namespace lint::model {

namespace {

void collect_python(const Document& doc, const PythonFacts& py, Launch& l) {
  torch::collect_calls(doc, py, l);
  accelerate::collect_plugin(doc, py, l);
  trainer::collect_arguments(doc, py, l);
  torch::collect_checkpointing_calls(doc, py, l);
}

/// A script alone: later assignments of one mechanism win, Python objects beat what the launcher would export
/// (unknown here), and a torch-level call decides for the model it wraps.
void resolve_python(Launch& l) {
  static constexpr std::array<std::string_view, 10> kKeys = {keys::kFsdpEnabled,
                                                             keys::kFsdpVersion,
                                                             keys::kShardingStrategy,
                                                             keys::kReshardAfterForward,
                                                             keys::kActivationCheckpointing,
                                                             keys::kAutoWrapPolicy,
                                                             keys::kGradientCheckpointing,
                                                             keys::kModelGradientCheckpointing,
                                                             keys::kApplyActivationCheckpointing,
                                                             keys::kLightningAcPolicy};
  for (std::string_view key : kKeys) decide(l, key, std::nullopt, "not set in the script");
  for (const accelerate::FsdpKey& k : accelerate::fsdp_keys()) {
    if (l.get(k.canonical) == nullptr) decide(l, k.canonical, std::nullopt, "not set in the script");
  }
}

}  // namespace

void collect_script(const BoundInputs& in, Launch& l) {
  if (in.python == nullptr || !in.python->python) return;
  const PythonFacts& py = *in.python->python;
  collect_python(*in.python, py, l);
  if (auto cls = trainer::parser_config_class(py, in.python->source->text()))
    trainer::collect_cli(*in.script_doc, *in.command, *cls, in.trainer_fsdp_config, l);
}

void resolve_script_alone(const Document& doc, Launch& l) {
  if (doc.python) collect_python(doc, *doc.python, l);
  resolve_python(l);
}

}  // namespace lint::model
