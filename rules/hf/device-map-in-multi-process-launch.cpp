// HF009: `from_pretrained(..., device_map="auto")` (or another spreading map) in a multi-process data-parallel launch:
// each process spreads the model over every GPU it sees, and accelerate's prepare() refuses such a model in any
// distributed mode (accelerate src/accelerate/accelerator.py:1469-1480, :1808-1816, :4309-4318). Under ZeRO-3 and FSDP
// the device map is a different hazard, left to the quantization/sharding rules. Only scripts that hand the model to
// prepare() (directly or through a Trainer) are concerned.
#include <algorithm>
#include <array>
#include <string>

#include "lint/model/quantization_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// device_map strings that let accelerate place modules over all visible GPUs.
bool spreads(const model::Value& v) {
  static constexpr std::array<std::string_view, 4> kSpreading = {"auto", "balanced", "balanced_low_0", "sequential"};
  if (v.kind != model::ValueKind::String) return false;
  for (std::string_view s : kSpreading) {
    if (v.text == s) return true;
  }
  return false;
}

/// True when the launch uses FSDP or DeepSpeed anywhere, or may (a value that is not known).
bool sharded_or_unknown(const model::Launch& l) {
  if (l.fsdp_enabled() || l.launcher == model::Launcher::DeepSpeed) return true;
  const model::Value& dt = l.value(model::keys::kDistributedType);
  if (dt.kind == model::ValueKind::String && (dt.text == "FSDP" || dt.text == "DEEPSPEED" || dt.text == "MEGATRON_LM"))
    return true;
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::DeepSpeedConfig || d->kind == model::DocKind::TrainerFsdpConfig) return true;
    if (d->python && d->source->text().find("deepspeed") != std::string::npos) return true;
  }
  if (l.command) {
    for (const parse::Word& w : l.command->script_args) {
      if (w.text.find("deepspeed") != std::string::npos || w.text.find("fsdp") != std::string::npos) return true;
    }
    for (const parse::Flag& f : l.command->flags) {
      if (f.name == "use_deepspeed" || f.name == "use_fsdp") return true;
    }
  }
  return false;
}

/// True when the script hands a model to accelerate's prepare(): a Trainer (its train() prepares the model) or a
/// prepare call. A script that only runs inference on the spread model never meets the check.
bool prepares_a_model(const model::PythonFacts& py) {
  for (const model::PyCall& c : py.calls) {
    if (c.name == "prepare" || c.name == "prepare_model" || (c.name.ends_with("Trainer") && c.name != "Trainer") ||
        (c.name == "Trainer" && !c.callee.starts_with("lightning") && !c.callee.starts_with("pytorch_lightning")))
      return true;
  }
  return false;
}

class DeviceMapInMultiProcessLaunch final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const std::optional<std::int64_t> world = l.world_size();
    if (!world || *world <= 1 || sharded_or_unknown(l)) return;
    const model::Effective* ws = l.get(model::keys::kWorldSize);
    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      if (d->source->text().find("ACCELERATE_BYPASS_DEVICE_MAP") != std::string::npos) continue;
      if (!prepares_a_model(*d->python)) continue;
      for (const model::PyCall& c : d->python->calls) {
        if (c.name != "from_pretrained") continue;
        const model::PyArg* dm = c.keyword("device_map");
        if (dm == nullptr || !spreads(dm->value)) continue;
        ctx.report(d->path(), dm->region,
                   "`device_map=\"" + dm->value.text +
                       "\"` spreads the model over every GPU the process sees, and "
                       "this launch starts " +
                       std::to_string(*world) +
                       " data-parallel processes: accelerate's "
                       "`prepare()` (also inside the Trainer) raises \"You can't train a model that has been loaded "
                       "with `device_map='auto'` in any distributed mode\". Load one replica per process "
                       "(`device_map={\"\": local_rank}`), or launch a single process to split the model.",
                   related_to(ws != nullptr ? ws->decided_by : nullptr, "The number of processes comes from here."));
      }
    }
    // The same load in a module of the project that the script imports from and calls (Launch::imported_modules;
    // model::quantization_facts keeps the loads that run when the script calls what it imports).
    const model::Document* script = model::launch_script(l);
    if (l.imported_modules.empty() || script == nullptr || !prepares_a_model(*script->python)) return;
    for (const model::Site& s : model::quantization_facts(l).auto_device_maps) {
      const bool imported = std::any_of(l.imported_modules.begin(), l.imported_modules.end(),
                                        [&s](const model::ImportedModule& m) { return m.document->path() == s.path; });
      if (!imported) continue;
      ctx.report(s.path, s.region,
                 "`" + s.what + "` spreads the model over every GPU the process sees, and this launch starts " +
                     std::to_string(*world) + " data-parallel processes running `" + script->path() +
                     "`, which calls this code: accelerate's `prepare()` (also inside the Trainer) raises \"You "
                     "can't train a model that has been loaded with `device_map='auto'` in any distributed mode\". "
                     "Load one replica per process (`device_map={\"\": local_rank}`), or launch a single process to "
                     "split the model.",
                 related_to(ws != nullptr ? ws->decided_by : nullptr, "The number of processes comes from here."));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_device_map_in_multi_process_launch() {
  return std::make_unique<DeviceMapInMultiProcessLaunch>();
}

}  // namespace lint::rules
