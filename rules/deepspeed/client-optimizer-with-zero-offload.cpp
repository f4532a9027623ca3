// DS012: a client (non-DeepSpeed) optimizer handed to a DeepSpeed engine whose config offloads the optimizer.
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

/// DeepSpeed's CPU optimizers, the two the engine accepts with optimizer offload (DeepSpeed 0.19.5
/// `deepspeed/runtime/engine.py:1996-1997`).
bool is_deepspeed_cpu_optimizer(std::string_view callee) {
  return callee.ends_with("DeepSpeedCPUAdam") || callee.ends_with("DeepSpeedCPULion");
}

/// A known optimizer class that is not one of DeepSpeed's CPU optimizers: torch.optim (not its schedulers),
/// bitsandbytes, apex and DeepSpeed's GPU FusedAdam/FusedLamb.
bool is_client_optimizer(std::string_view callee) {
  if (callee.starts_with("torch.optim.")) return !callee.starts_with("torch.optim.lr_scheduler") &&
                                                 !callee.starts_with("torch.optim.swa_utils");
  return callee.starts_with("bitsandbytes.optim.") || callee.starts_with("apex.optimizers.") ||
         callee.starts_with("deepspeed.ops.adam.FusedAdam") || callee.starts_with("deepspeed.ops.lamb.");
}

/// Where a DeepSpeed JSON offloads the optimizer to cpu or nvme (`offload_optimizer.device`, or the deprecated
/// `cpu_offload: true`), unless `zero_force_ds_cpu_optimizer` is false or the file defines its own `optimizer`.
const parse::Node* optimizer_offload(const parse::Node& root) {
  if (root.find("optimizer") != nullptr) return nullptr;
  // Present and not literally `true`: false, or not known statically. Either way no finding.
  if (const parse::Node* f = root.find("zero_force_ds_cpu_optimizer");
      f != nullptr && !(f->kind == parse::NodeKind::Bool && f->boolean))
    return nullptr;
  const parse::Node* zo = root.find("zero_optimization");
  if (zo == nullptr || !zo->is_map()) return nullptr;
  if (const parse::Node* off = zo->find("offload_optimizer"); off != nullptr && off->is_map()) {
    const parse::Node* dev = off->find("device");
    if (dev != nullptr && dev->kind == parse::NodeKind::String && (dev->text == "cpu" || dev->text == "nvme"))
      return dev;
  }
  if (const parse::Node* c = zo->find("cpu_offload"); c != nullptr && c->kind == parse::NodeKind::Bool && c->boolean)
    return c;
  return nullptr;
}

/// The same for a config written as a Python dict.
const model::Value* optimizer_offload(const model::Value& cfg) {
  if (cfg.field("optimizer") != nullptr) return nullptr;
  if (const model::Value* f = cfg.field("zero_force_ds_cpu_optimizer");
      f != nullptr && !(f->kind == model::ValueKind::Bool && f->boolean))
    return nullptr;
  const model::Value* zo = cfg.field("zero_optimization");
  if (zo == nullptr || zo->kind != model::ValueKind::Dict) return nullptr;
  if (const model::Value* off = zo->field("offload_optimizer"); off != nullptr && off->kind == model::ValueKind::Dict) {
    const model::Value* dev = off->field("device");
    if (dev != nullptr && dev->kind == model::ValueKind::String && (dev->text == "cpu" || dev->text == "nvme"))
      return dev;
  }
  return nullptr;
}

std::string json_where(const model::Document& json, const parse::Node& offload) {
  if (offload.kind == parse::NodeKind::Bool) return "`\"cpu_offload\": true` in " + json.path();
  return "`\"device\": \"" + offload.text + "\"` in the `offload_optimizer` of " + json.path();
}

std::string message(std::string_view who, std::string_view optimizer, std::string_view offload, std::string_view fix) {
  return std::string(who) + " hands DeepSpeed a client optimizer (`" + std::string(optimizer) +
         "`) while the optimizer is offloaded (" + std::string(offload) +
         "): DeepSpeed raises ZeRORuntimeException(\"You are using ZeRO-Offload with a client provided optimizer "
         "...\") when the engine is built (" +
         ds_cite("deepspeed/runtime/engine.py:1996-2000") +
         "; only DeepSpeedCPUAdam and DeepSpeedCPULion pass). " + std::string(fix);
}

class ClientOptimizerWithZeroOffload final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* script = model::launch_script(l);
    if (script == nullptr) return;
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (ds.reader == model::DeepSpeedReader::Integration) return;  // accelerate swaps in DeepSpeedCPUAdam
    const model::Document* json = l.per_file ? nullptr : deepspeed_json(l);
    const parse::Node* json_offload = json != nullptr ? optimizer_offload(*json->root_map()) : nullptr;
    const bool json_has_optimizer = json != nullptr && json->root_map()->find("optimizer") != nullptr;
    const model::PythonFacts& py = *script->python;
    std::vector<rule::RelatedLocation> at_json;
    if (json_offload != nullptr)
      at_json.push_back({json->path(), json_offload->region, "The optimizer is offloaded here."});

    // Plain DeepSpeed: `deepspeed.initialize(optimizer=torch.optim.AdamW(...), config=...)`.
    bool file_has_cpu_optimizer = false;
    for (const model::PyCall& c : py.calls) file_has_cpu_optimizer |= is_deepspeed_cpu_optimizer(c.callee);
    for (const auto& [local, qualified] : py.imports) file_has_cpu_optimizer |= is_deepspeed_cpu_optimizer(qualified);
    for (const model::PyCall& c : py.calls) {
      if (c.name != "initialize" || !c.callee.starts_with("deepspeed")) continue;
      const model::PyArg* opt = c.keyword("optimizer");
      if (opt == nullptr) continue;
      std::string optimizer;
      if (opt->value.kind == model::ValueKind::Object) {
        if (!is_client_optimizer(opt->value.text) || is_deepspeed_cpu_optimizer(opt->value.text)) continue;
        optimizer = opt->value.text;
      } else if (opt->value.kind == model::ValueKind::Unknown && !file_has_cpu_optimizer) {
        // `model, optimizer, _, _ = deepspeed.initialize(model=model, optimizer=optimizer, ...)` rebinds the name,
        // so its value is not a single assignment: take the one optimizer built before the call in the same
        // function, when there is exactly one and the file never builds a DeepSpeed CPU optimizer.
        const model::PyCall* built = nullptr;
        int count = 0;
        for (const model::PyCall& b : py.calls) {
          if (b.function != c.function || b.order >= c.order || !is_client_optimizer(b.callee)) continue;
          built = &b;
          ++count;
        }
        if (count != 1) continue;
        optimizer = built->callee;
      } else {
        continue;
      }
      const model::PyArg* cfg = c.keyword("config");
      if (cfg == nullptr) cfg = c.keyword("config_params");
      std::string where;
      std::vector<rule::RelatedLocation> related;
      if (cfg != nullptr && cfg->value.kind == model::ValueKind::Dict) {
        const model::Value* dev = optimizer_offload(cfg->value);
        if (dev == nullptr) continue;
        where = "`\"device\": " + dev->display() + "` in the config's `offload_optimizer`";
        related.push_back({script->path(), dev->region, "The optimizer is offloaded here."});
      } else if (json_offload != nullptr) {
        where = json_where(*json, *json_offload);
        related = at_json;
      } else {
        continue;
      }
      ctx.report(script->path(), opt->region,
                 message("`deepspeed.initialize`", optimizer, where,
                         "Pass `deepspeed.ops.adam.DeepSpeedCPUAdam`, or drop `optimizer=` and define an `optimizer` "
                         "section in the DeepSpeed config, or set `\"zero_force_ds_cpu_optimizer\": false` to keep "
                         "this optimizer (it then steps on the CPU in plain PyTorch, slowly)."),
                 std::move(related));
    }

    // Lightning: the optimizer returned by `configure_optimizers` goes to `deepspeed.initialize` unless the
    // DeepSpeed config has its own `optimizer` section (Lightning 2.6.2
    // `src/lightning/pytorch/strategies/deepspeed.py:494-507`).
    if (ds.reader != model::DeepSpeedReader::Lightning || json_has_optimizer) return;
    std::string where;
    std::vector<rule::RelatedLocation> related;
    for (const model::PyCall& c : py.calls) {
      if (c.name == "DeepSpeedStrategy") {
        if (const model::PyArg* a = c.keyword("offload_optimizer");
            a != nullptr && a->value.kind == model::ValueKind::Bool && a->value.boolean) {
          where = "`offload_optimizer=True`";
          related.push_back({script->path(), a->region, "The optimizer is offloaded here."});
        }
      }
      if ((c.name == "Trainer" || c.name == "Fabric") &&
          (c.callee.starts_with("lightning") || c.callee.starts_with("pytorch_lightning"))) {
        if (const model::PyArg* a = c.keyword("strategy"); a != nullptr && a->value.kind == model::ValueKind::String &&
                                                            a->value.text.starts_with("deepspeed_stage_") &&
                                                            a->value.text.find("_offload") != std::string::npos) {
          where = "`strategy=" + a->value.display() + "`";
          related.push_back({script->path(), a->region, "The optimizer is offloaded here."});
        }
      }
    }
    if (where.empty() && json_offload != nullptr) {
      where = json_where(*json, *json_offload);
      related = at_json;
    }
    if (where.empty()) return;
    const model::PyCall* client = nullptr;
    for (const model::PyCall& c : py.calls) {
      if (c.function != "configure_optimizers") continue;
      if (is_deepspeed_cpu_optimizer(c.callee)) return;
      if (client == nullptr && is_client_optimizer(c.callee)) client = &c;
    }
    if (client == nullptr) return;
    ctx.report(script->path(), client->callee_region,
               message("`configure_optimizers`", client->callee, where,
                       "Return `deepspeed.ops.adam.DeepSpeedCPUAdam(...)` from `configure_optimizers`, or set "
                       "`\"zero_force_ds_cpu_optimizer\": false` in a DeepSpeed config to keep this optimizer (it then "
                       "steps on the CPU in plain PyTorch, slowly)."),
               std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_client_optimizer_with_zero_offload() {
  return std::make_unique<ClientOptimizerWithZeroOffload>();
}

}  // namespace lint::rules
