// FSDP009 / FSDP010: an FSDP1 launch of a PEFT model whose wrap policy leaves the trainable adapter weights and the
// frozen base weights in one FSDP unit (one FlatParameter). Shared by the two rules, which differ by
// `use_orig_params`.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/support.hpp"

namespace lint::rules::peft_units {

/// A place in a file (a setting written there, or a call).
struct Site {
  std::string path;
  source::Region region;
};

struct MixedUnits {
  Site peft;                        ///< get_peft_model(...) / PeftModel.from_pretrained(..., is_trainable=True)
  std::string policy;               ///< how the units are chosen, for the message
  std::optional<Site> policy_site;  ///< where the policy is written (none: a default)
  bool use_orig_params = false;
  std::optional<Site> use_orig_params_site;  ///< where it is written (none: a default)
  bool accelerate = true;           ///< through accelerate's plugin (false: a FullyShardedDataParallel call)
  std::optional<Site> half_base;    ///< from_pretrained(torch_dtype=bfloat16/float16) with PEFT's fp32 adapters
  Site report;                      ///< where the rule reports
};

inline bool ends_with(std::string_view s, std::string_view suffix) { return s.ends_with(suffix); }

/// The call that makes a trainable PEFT model, if any.
inline const model::PyCall* peft_model_call(const model::PythonFacts& py) {
  for (const model::PyCall& c : py.calls) {
    if (c.name == "get_peft_model" && (c.callee == "get_peft_model" || c.callee.starts_with("peft."))) return &c;
    // PeftModel / AutoPeftModelFor* .from_pretrained loads adapters frozen unless is_trainable=True.
    if (c.name == "from_pretrained" && c.callee.find("PeftModel") != std::string::npos) {
      const model::PyArg* t = c.keyword("is_trainable");
      if (t != nullptr && t->value.kind == model::ValueKind::Bool && t->value.boolean) return &c;
    }
  }
  return nullptr;
}

/// The script installs its own policy: PEFT's `fsdp_auto_wrap_policy(model)`, a plugin attribute assigned, or a
/// policy launchlint does not read (lambda / custom / `_or_policy`).
inline bool own_policy(const model::Document& doc) {
  const model::PythonFacts& py = *doc.python;
  for (const model::PyCall& c : py.calls) {
    if (c.name == "fsdp_auto_wrap_policy" || c.name == "lambda_auto_wrap_policy" || c.name == "_or_policy" ||
        c.name == "CustomPolicy")
      return true;
  }
  for (const model::PyAttributeAssignment& a : py.attribute_assignments) {
    if (a.attribute == "auto_wrap_policy") return true;
  }
  const std::string_view text = doc.source->text();
  for (std::string_view name : {"fsdp_auto_wrap_policy", "lambda_auto_wrap_policy", "_or_policy", "CustomPolicy"}) {
    if (text.find(name) != std::string_view::npos) return true;
  }
  return false;
}

/// An HF Trainer (or a TRL trainer) in the script: it installs PEFT's wrap policy for a PEFT model under FSDP1
/// (transformers `src/transformers/distributed/fsdp.py` `update_fsdp_plugin_peft`).
inline bool has_trainer(const model::PythonFacts& py) {
  for (const model::PyCall& c : py.calls) {
    if (c.name.size() > 7 && ends_with(c.name, "Trainer")) return true;
    if (c.name == "Trainer") return true;
  }
  return false;
}

/// `from_pretrained(torch_dtype=torch.bfloat16)` (or `dtype=`, `"float16"`, ...) without
/// `autocast_adapter_dtype=False` given to get_peft_model: PEFT keeps the adapters in float32.
inline std::optional<Site> half_precision_base(const model::Document& doc, const model::PyCall& peft) {
  // autocast_adapter_dtype=False keeps the adapters in the base dtype; a value not known may too.
  if (const model::PyArg* a = peft.keyword("autocast_adapter_dtype");
      a != nullptr && !(a->value.kind == model::ValueKind::Bool && a->value.boolean))
    return std::nullopt;
  auto half = [](const model::Value& v) {
    return (v.kind == model::ValueKind::Enum || v.kind == model::ValueKind::String) &&
           (v.text == "bfloat16" || v.text == "float16" || v.text == "half" || v.text == "bf16" || v.text == "fp16");
  };
  for (const model::PyCall& c : doc.python->calls) {
    // `model.to(torch.bfloat16)`, `model.bfloat16()`, `model.half()` before get_peft_model in the same function.
    if (c.order < peft.order && c.function == peft.function && !c.receiver.empty()) {
      const model::PyArg* a = c.positional(0);
      if ((c.name == "to" && a != nullptr && half(a->value)) ||
          ((c.name == "bfloat16" || c.name == "half") && c.args.empty()))
        return Site{doc.path(), c.region};
    }
    if (c.name != "from_pretrained" || c.callee.find("Peft") != std::string::npos || c.function != peft.function)
      continue;
    for (std::string_view k : {"torch_dtype", "dtype"}) {
      const model::PyArg* d = c.keyword(k);
      if (d == nullptr) continue;
      if (half(d->value)) return Site{doc.path(), d->region};
    }
  }
  return std::nullopt;
}

/// The script of the launch that makes a PEFT model, and the call.
inline std::pair<const model::Document*, const model::PyCall*> peft_script(const model::Launch& l) {
  for (const model::Document* d : l.documents) {
    if (d->kind != model::DocKind::PythonScript || !d->python) continue;
    if (const model::PyCall* c = peft_model_call(*d->python)) return {d, c};
  }
  return {nullptr, nullptr};
}

/// accelerate's plugin (config file, flags, environment, a plugin in the script), FSDP1.
inline std::optional<MixedUnits> through_accelerate(const model::Launch& l, const model::Document& doc,
                                                    const model::PyCall& peft) {
  const model::Effective* v = l.get(model::keys::kFsdpVersion);
  if (v == nullptr || v->decided_by == nullptr) return std::nullopt;
  switch (v->decided_by->origin) {
    case model::Origin::TorchCall:
    case model::Origin::LightningStrategy:
    case model::Origin::TrainingArguments:
    case model::Origin::TrainerFsdpConfig:
    case model::Origin::AxolotlConfig:
    case model::Origin::TorchtitanConfig:
      return std::nullopt;
    default:
      break;
  }
  // accelerate builds the unit policy from the plugin (utils/dataclasses.py:2058-2090) and wraps with it
  // (accelerator.py:1925-1964); it never installs PEFT's policy itself.
  const model::Value& policy = l.value(model::keys::kAutoWrapPolicy);
  if (policy.kind != model::ValueKind::String) return std::nullopt;
  MixedUnits m;
  if (policy.text == "TRANSFORMER_BASED_WRAP") {
    const model::Value& cls = l.value(model::keys::kTransformerLayerCls);
    // Linear layers as units put each LoRA Linear in a unit of its own.
    if (cls.kind == model::ValueKind::String && cls.text.find("Linear") != std::string::npos) return std::nullopt;
    m.policy = "TRANSFORMER_BASED_WRAP wraps each " +
               (cls.kind == model::ValueKind::String ? "`" + cls.text + "`" : std::string("decoder layer")) +
               " as one unit, with the LoRA weights inside it";
  } else if (policy.text == "SIZE_BASED_WRAP") {
    m.policy = "SIZE_BASED_WRAP groups the small LoRA weights with the frozen weights around them";
  } else if (policy.text == "NO_WRAP") {
    m.policy = "with NO_WRAP the whole model is one unit";
  } else {
    return std::nullopt;
  }
  if (const model::Setting* s = written_site(l, model::keys::kAutoWrapPolicy)) m.policy_site = Site{s->path, s->region};
  else m.policy += " (NO_WRAP is accelerate's default)";
  const model::Value& uop = l.value(model::keys::kUseOrigParams);
  if (uop.kind != model::ValueKind::Bool) return std::nullopt;
  m.use_orig_params = uop.boolean;
  if (const model::Setting* s = written_site(l, model::keys::kUseOrigParams))
    m.use_orig_params_site = Site{s->path, s->region};
  m.peft = Site{doc.path(), peft.callee_region};
  m.report = m.use_orig_params_site ? *m.use_orig_params_site : m.policy_site ? *m.policy_site : m.peft;
  return m;
}

/// A `FullyShardedDataParallel(...)` call in the script itself.
inline std::optional<MixedUnits> through_torch(const model::Document& doc, const model::PyCall& peft) {
  const model::PythonFacts& py = *doc.python;
  for (const model::PyCall* c : py.calls_named("FullyShardedDataParallel")) {
    // A PEFT model and an FSDP wrap in different functions of one file (peft's tests/test_custom_models.py holds
    // dozens of each) are not known to be the same model.
    if (c->has_unresolved_unpacking || c->function != peft.function) continue;
    MixedUnits m;
    m.accelerate = false;
    const model::PyArg* policy = c->keyword("auto_wrap_policy");
    if (policy == nullptr) {
      m.policy = "without an `auto_wrap_policy` the whole model is one unit";
    } else if (policy->value.kind == model::ValueKind::Object &&
               (ends_with(policy->value.text, "ModuleWrapPolicy") || ends_with(policy->value.text, "partial"))) {
      // functools.partial(transformer_auto_wrap_policy / size_based_auto_wrap_policy, ...) or
      // ModuleWrapPolicy({DecoderLayer}): layer units that hold the LoRA weights.
      bool layer_policy = ends_with(policy->value.text, "ModuleWrapPolicy");
      for (const model::PyCall* p : py.calls_named("partial")) {
        const model::PyArg* f = p->positional(0);
        if (f == nullptr || f->value.kind != model::ValueKind::Object) continue;
        if (ends_with(f->value.text, "transformer_auto_wrap_policy") ||
            ends_with(f->value.text, "size_based_auto_wrap_policy"))
          layer_policy = true;
      }
      if (!layer_policy) continue;
      m.policy = "the layer-class `auto_wrap_policy` wraps each layer as one unit, with the LoRA weights inside it";
      m.policy_site = Site{doc.path(), policy->region};
    } else {
      continue;  // a policy launchlint does not read
    }
    const model::PyArg* uop = c->keyword("use_orig_params");
    if (uop == nullptr) {
      m.use_orig_params = false;  // FullyShardedDataParallel's default
    } else if (uop->value.kind == model::ValueKind::Bool) {
      m.use_orig_params = uop->value.boolean;
      m.use_orig_params_site = Site{doc.path(), uop->region};
    } else {
      continue;
    }
    m.peft = Site{doc.path(), peft.callee_region};
    m.report = m.use_orig_params_site ? *m.use_orig_params_site : Site{doc.path(), c->callee_region};
    return m;
  }
  return std::nullopt;
}

/// The mixed units of an FSDP1 launch of a PEFT model, when launchlint can tell (otherwise nullopt).
inline std::optional<MixedUnits> find(const model::Launch& l) {
  if (!l.fsdp_enabled() || l.fsdp_version() != 1) return std::nullopt;
  const auto [doc, peft] = peft_script(l);
  if (doc == nullptr) return std::nullopt;
  if (has_trainer(*doc->python) || own_policy(*doc)) return std::nullopt;
  std::optional<MixedUnits> m = through_torch(*doc, *peft);
  if (!m && !doc->python->calls_named("FullyShardedDataParallel").empty()) return std::nullopt;
  if (!m) m = through_accelerate(l, *doc, *peft);
  if (m) m->half_base = half_precision_base(*doc, *peft);
  return m;
}

inline std::vector<rule::RelatedLocation> related(const MixedUnits& m) {
  std::vector<rule::RelatedLocation> out;
  out.push_back({m.peft.path, m.peft.region, "The PEFT model (frozen base, trainable adapters) is made here."});
  if (m.policy_site && !(m.policy_site->path == m.report.path && m.policy_site->region == m.report.region))
    out.push_back({m.policy_site->path, m.policy_site->region, "The wrap policy is chosen here."});
  if (m.half_base) out.push_back({m.half_base->path, m.half_base->region, "The base model is loaded in half precision here."});
  return out;
}

inline std::string fix_advice(const MixedUnits& m) {
  return m.accelerate ? "Install PEFT's policy before `prepare()`: `accelerator.state.fsdp_plugin.auto_wrap_policy = "
                        "fsdp_auto_wrap_policy(model)` (from peft.utils.other), or use FSDP2 (`fsdp_version: 2`)."
                      : "Pass `auto_wrap_policy=fsdp_auto_wrap_policy(model)` (from peft.utils.other), which wraps the "
                        "LoRA layers in units of their own, or shard with FSDP2 `fully_shard`.";
}

}  // namespace lint::rules::peft_units
