#include "lint/model/resolve.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <map>

#include "lint/model/accelerate_schema.hpp"
#include "lint/model/precedence.hpp"
#include "lint/parse/integer.hpp"

namespace lint::model {

namespace {

namespace acc = accelerate;
using parse::find_arg;
using parse::find_flag;
using parse::Flag;
using parse::int_of;
using parse::LaunchCommand;
using parse::LaunchTool;
using parse::script_arguments;
using parse::ScriptArg;
using parse::Word;

std::string upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

void mark_unread(Launch& l);

// ---------------------------------------------------------------------------------------------------------------
// accelerate config files

void collect_accelerate_config(const Document& doc, Launch& l, bool fsdp_section_read = true) {
  const parse::Node* root = doc.root_map();
  if (root == nullptr) return;
  for (const parse::Entry& e : root->entries) {
    const std::string& k = e.key.text;
    const Value written = value_of(e.value);
    if (k == "distributed_type") {
      Value v = written;
      // Unquoted NO is PyYAML's False; accelerate's launcher then runs non-distributed, as the user meant.
      if (v.kind == ValueKind::Bool && !v.boolean) v = Value::of_string("NO", v.region);
      l.add(make_setting(keys::kDistributedType, v, written, doc, e.value.region, Origin::ConfigFile, k));
    } else if (k == "num_processes" || k == "num_machines") {
      l.add(make_setting(k == "num_processes" ? keys::kNumProcesses : keys::kNumMachines, written, written, doc,
                         e.value.region, Origin::ConfigFile, k));
    } else if (k == "mixed_precision") {
      l.add(make_setting(keys::kMixedPrecision, written, written, doc, e.value.region, Origin::ConfigFile, k));
    } else if (k == "fp16" && root->find("mixed_precision") == nullptr && truth_of(written).value_or(false)) {
      // Legacy key rewritten to mixed_precision: fp16 before validation (config_args.py:113-116, probe Z3).
      l.add(make_setting(keys::kMixedPrecision, Value::of_string("fp16", e.value.region), written, doc,
                         e.value.region, Origin::ConfigFile, k));
    } else if (k == "fsdp_config" && e.value.is_map() && fsdp_section_read) {
      for (const parse::Entry& f : e.value.entries) {
        const std::string prefixed = f.key.text.starts_with("fsdp_") ? f.key.text : "fsdp_" + f.key.text;
        const acc::FsdpKey* info = acc::find_fsdp_key(prefixed);
        if (info == nullptr) continue;
        const Value fw = value_of(f.value);
        l.add(make_setting(info->canonical, normalise_fsdp_value(prefixed, fw), fw, doc, f.value.region,
                           Origin::ConfigFile, "fsdp_config." + f.key.text));
      }
    }
  }
}

/// `accelerate launch --config_file <doc>`: config values over the flag defaults (launch.py:1259-1271).
void resolve_accelerate_launch(Launch& l) {
  decide(l, keys::kDistributedType, std::nullopt);
  const Value& dt = l.value(keys::kDistributedType);
  if (dt.kind == ValueKind::String) {
    const Effective* e = l.get(keys::kDistributedType);
    Setting s = *e->decided_by;
    s.key = std::string(keys::kFsdpEnabled);
    s.value = Value::of_bool(dt.text == "FSDP", s.region);
    l.add(std::move(s));
    decide(l, keys::kFsdpEnabled, std::nullopt);
  } else {
    l.set_unknown(keys::kFsdpEnabled);
  }

  std::optional<Setting> np_default;
  if (dt.kind == ValueKind::String && dt.text == "NO")
    np_default = default_setting(keys::kNumProcesses, Value::of_int(1), SourceKind::LibraryDefault, "accelerate config default for NO");
  decide(l, keys::kNumProcesses, np_default);
  decide(l, keys::kNumMachines, default_setting(keys::kNumMachines, Value::of_int(1), SourceKind::LibraryDefault, "accelerate default"));
  decide(l, keys::kMixedPrecision,
                      default_setting(keys::kMixedPrecision, Value::of_string("no"), SourceKind::LauncherDefault, "accelerate launch default"));

  const Value& np = l.value(keys::kNumProcesses);
  if (np.kind == ValueKind::Int && np.integer > 0) {
    const Effective* e = l.get(keys::kNumProcesses);
    if (e->decided_by != nullptr) {
      Setting ws = *e->decided_by;
      ws.key = std::string(keys::kWorldSize);
      l.add(std::move(ws));
      decide(l, keys::kWorldSize, std::nullopt);
    }
  } else {
    l.set_unknown(keys::kWorldSize);
  }

  for (const acc::FsdpKey& k : acc::fsdp_keys()) {
    std::optional<Setting> fallback;
    if (!k.launch_default.empty()) {
      fallback = default_setting(k.canonical,
                                 normalise_fsdp_value(k.name, Value::of_string(std::string(k.launch_default))),
                                 SourceKind::LauncherDefault, "accelerate launch default of --" + std::string(k.name));
    } else if (k.canonical == keys::kAutoWrapPolicy) {
      fallback = default_setting(k.canonical, Value::of_string("NO_WRAP"),
                                 SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default when fsdp_auto_wrap_policy is unset");
    } else if (k.canonical == keys::kBackwardPrefetch) {
      fallback = default_setting(k.canonical, Value::of_string("NO_PREFETCH"),
                                 SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default (None: no backward prefetch)");
    }
    decide(l, k.canonical, std::move(fallback));
  }
  // The FSDP2 default state dict type differs from FSDP1's (dataclasses.py:2030-2034).
  if (l.get(keys::kStateDictType)->decided_by == nullptr) {
    const auto v = l.fsdp_version();
    if (v) {
      decide(l, keys::kStateDictType,
                          default_setting(keys::kStateDictType,
                                          Value::of_string(*v == 2 ? "SHARDED_STATE_DICT" : "FULL_STATE_DICT"),
                                          SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default"));
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Python scripts

bool is_trainer_args(std::string_view name) {
  static constexpr std::array<std::string_view, 2> kHf = {"TrainingArguments", "Seq2SeqTrainingArguments"};
  return std::find(kHf.begin(), kHf.end(), name) != kHf.end();
}

/// TRL's configs derive from TrainingArguments and default gradient_checkpointing to True
/// (trl:trl/trainer/base_config.py:61-62).
bool is_trl_config(std::string_view name) {
  static constexpr std::array<std::string_view, 17> kTrl = {
      "SFTConfig", "DPOConfig",   "GRPOConfig", "ORPOConfig",      "KTOConfig",   "CPOConfig",
      "RewardConfig", "PPOConfig", "RLOOConfig", "OnlineDPOConfig", "GKDConfig",   "PRMConfig",
      "BCOConfig", "XPOConfig",   "NashMDConfig", "AlignPropConfig", "DDPOConfig"};
  return std::find(kTrl.begin(), kTrl.end(), name) != kTrl.end();
}

Value enum_or_string_strategy(const Value& v) {
  if (v.kind == ValueKind::Enum || v.kind == ValueKind::String) {
    if (auto s = acc::parse_strategy(v.text)) {
      Value out = Value::of_string(std::string(*s), v.region);
      return out;
    }
    return v;
  }
  if (v.kind == ValueKind::Int) {
    if (auto s = acc::parse_strategy(v.text)) return Value::of_string(std::string(*s), v.region);
  }
  return v;
}

void add_call_setting(Launch& l, const Document& doc, const PyCall& call, const PyArg& arg, std::string_view key,
                      Value value, Origin origin) {
  l.add(make_setting(key, std::move(value), arg.value, doc, arg.region, origin, call.name + "(" + arg.name + "=)"));
}

/// Torch's FullyShardedDataParallel(...) (FSDP1) and fully_shard(...) (FSDP2), Lightning's FSDPStrategy(...).
void collect_torch_calls(const Document& doc, const PythonFacts& py, Launch& l) {
  const auto fsdp1 = py.calls_named("FullyShardedDataParallel");
  const auto fsdp2 = py.calls_named("fully_shard");
  const auto lightning = py.calls_named("FSDPStrategy");
  for (const PyCall* c : fsdp1) {
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, c->callee_region), Value::of_bool(true), doc,
                       c->callee_region, Origin::TorchCall, c->name + "(...)"));
    l.add(make_setting(keys::kFsdpVersion, Value::of_int(1, c->callee_region), Value::of_int(1), doc,
                       c->callee_region, Origin::TorchCall, c->name + "(...)"));
    if (const PyArg* a = c->keyword("sharding_strategy"))
      add_call_setting(l, doc, *c, *a, keys::kShardingStrategy, enum_or_string_strategy(a->value), Origin::TorchCall);
    else if (!c->has_unresolved_unpacking)
      l.add(make_setting(keys::kShardingStrategy, Value::of_string("FULL_SHARD", c->callee_region), Value{}, doc,
                         c->callee_region, Origin::TorchCall, c->name + "(...) default"));
  }
  for (const PyCall* c : lightning) {
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, c->callee_region), Value::of_bool(true), doc,
                       c->callee_region, Origin::LightningStrategy, c->name + "(...)"));
    l.add(make_setting(keys::kFsdpVersion, Value::of_int(1, c->callee_region), Value::of_int(1), doc,
                       c->callee_region, Origin::LightningStrategy, c->name + "(...)"));
    if (const PyArg* a = c->keyword("sharding_strategy")) {
      Value v = a->value;
      // Lightning resolves strings with ShardingStrategy[s.upper()]: the ZeRO-2 hybrid member is _HYBRID_SHARD_ZERO2.
      if (v.kind == ValueKind::String) {
        const std::string up = upper(v.text);
        static constexpr std::array<std::string_view, 5> kMembers = {"FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD",
                                                                     "HYBRID_SHARD", "_HYBRID_SHARD_ZERO2"};
        if (std::find(kMembers.begin(), kMembers.end(), up) != kMembers.end())
          v = Value::of_string(up == "_HYBRID_SHARD_ZERO2" ? "HYBRID_SHARD_ZERO2" : up, v.region);
      } else {
        v = enum_or_string_strategy(v);
      }
      add_call_setting(l, doc, *c, *a, keys::kShardingStrategy, v, Origin::LightningStrategy);
    } else if (!c->has_unresolved_unpacking) {
      l.add(make_setting(keys::kShardingStrategy, Value::of_string("FULL_SHARD", c->callee_region), Value{}, doc,
                         c->callee_region, Origin::LightningStrategy, c->name + "(...) default"));
    }
    const PyArg* policy = c->keyword("activation_checkpointing_policy");
    if (policy == nullptr) policy = c->keyword("activation_checkpointing");
    if (policy != nullptr) {
      Value on = policy->value.kind == ValueKind::None ? Value::of_bool(false, policy->region)
                                                       : Value::of_bool(true, policy->region);
      if (policy->value.kind == ValueKind::Unknown) on = Value::unknown(policy->region);
      add_call_setting(l, doc, *c, *policy, keys::kLightningAcPolicy, on, Origin::LightningStrategy);
    }
  }
  if (!fsdp2.empty()) {
    // Several fully_shard calls are the usual per-layer pattern, often with the root kept unsharded
    // (reshard_after_forward=False on the root only). Parameters stay gathered only if every call says so.
    bool all_false = true;
    bool any_unknown = false;
    const PyCall* first = fsdp2.front();
    for (const PyCall* c : fsdp2) {
      const PyArg* a = c->keyword("reshard_after_forward");
      if (a == nullptr) {
        if (c->has_unresolved_unpacking) any_unknown = true;
        all_false = false;
        continue;
      }
      const auto t = a->value.kind == ValueKind::Bool ? std::optional<bool>(a->value.boolean) : std::nullopt;
      if (!t) any_unknown = true;
      else if (*t) all_false = false;
    }
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, first->callee_region), Value::of_bool(true), doc,
                       first->callee_region, Origin::TorchCall, "fully_shard(...)"));
    l.add(make_setting(keys::kFsdpVersion, Value::of_int(2, first->callee_region), Value::of_int(2), doc,
                       first->callee_region, Origin::TorchCall, "fully_shard(...)"));
    const PyCall* site = first;
    for (const PyCall* c : fsdp2) {
      if (c->keyword("reshard_after_forward") != nullptr) {
        site = c;
        break;
      }
    }
    const PyArg* a = site->keyword("reshard_after_forward");
    Value v = any_unknown ? Value::unknown() : Value::of_bool(!all_false);
    v.region = a != nullptr ? a->region : site->callee_region;
    l.add(make_setting(keys::kReshardAfterForward, v, a != nullptr ? a->value : Value{}, doc, v.region,
                       Origin::TorchCall, "fully_shard(reshard_after_forward=)"));
  }
}

/// Keyword names of FullyShardedDataParallelPlugin and the canonical key each sets.
struct PluginField {
  std::string_view kwarg;
  std::string_view prefixed;  ///< the accelerate config key whose parsing applies
};
constexpr std::array kPluginFields = {
    PluginField{"fsdp_version", "fsdp_version"},
    PluginField{"sharding_strategy", "fsdp_sharding_strategy"},
    PluginField{"reshard_after_forward", "fsdp_reshard_after_forward"},
    PluginField{"auto_wrap_policy", "fsdp_auto_wrap_policy"},
    PluginField{"min_num_params", "fsdp_min_num_params"},
    PluginField{"transformer_cls_names_to_wrap", "fsdp_transformer_layer_cls_to_wrap"},
    PluginField{"backward_prefetch", "fsdp_backward_prefetch"},
    PluginField{"forward_prefetch", "fsdp_forward_prefetch"},
    PluginField{"state_dict_type", "fsdp_state_dict_type"},
    PluginField{"use_orig_params", "fsdp_use_orig_params"},
    PluginField{"sync_module_states", "fsdp_sync_module_states"},
    PluginField{"cpu_ram_efficient_loading", "fsdp_cpu_ram_efficient_loading"},
    PluginField{"activation_checkpointing", "fsdp_activation_checkpointing"},
};

void collect_plugin(const Document& doc, const PythonFacts& py, Launch& l) {
  for (const PyCall* c : py.calls_named("FullyShardedDataParallelPlugin")) {
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, c->callee_region), Value::of_bool(true), doc,
                       c->callee_region, Origin::PluginObject, c->name + "(...)"));
    for (const PluginField& f : kPluginFields) {
      const PyArg* a = c->keyword(f.kwarg);
      if (a == nullptr || a->value.kind == ValueKind::None) continue;
      const acc::FsdpKey* info = acc::find_fsdp_key(f.prefixed);
      Value v = a->value;
      if (f.kwarg == "auto_wrap_policy" && v.kind != ValueKind::String) {
        v = v.kind == ValueKind::Unknown ? v : Value::of_string("CUSTOM", v.region);
      } else if (f.kwarg == "reshard_after_forward" && v.kind == ValueKind::Bool) {
        // a Python bool is kept as is (FSDP2 semantics; FSDP1 rejects it)
      } else if (v.kind == ValueKind::Enum || v.kind == ValueKind::String || v.kind == ValueKind::Int) {
        Value as_text = v;
        if (v.kind == ValueKind::Enum) as_text = Value::of_string(v.text, v.region);
        v = normalise_fsdp_value(f.prefixed, as_text);
      }
      add_call_setting(l, doc, *c, *a, info->canonical, v, Origin::PluginObject);
    }
    if (const PyArg* a = c->keyword("cpu_offload")) {
      Value v = a->value.kind == ValueKind::Bool ? a->value : Value::unknown(a->region);
      if (a->value.kind == ValueKind::Object) v = Value::of_bool(true, a->region);
      add_call_setting(l, doc, *c, *a, keys::kOffloadParams, v, Origin::PluginObject);
    }
  }
  // accelerator.state.fsdp_plugin.<field> = value (PEFT's documented recipe) wins over the constructed plugin.
  for (const PyAttributeAssignment& a : py.attribute_assignments) {
    if (a.target.find("fsdp_plugin.") == std::string::npos) continue;
    for (const PluginField& f : kPluginFields) {
      if (a.attribute != f.kwarg) continue;
      const acc::FsdpKey* info = acc::find_fsdp_key(f.prefixed);
      Value v = a.value;
      if (f.kwarg == "auto_wrap_policy" && v.kind != ValueKind::String && v.kind != ValueKind::Unknown)
        v = Value::of_string("CUSTOM", v.region);
      l.add(make_setting(info->canonical, v, a.value, doc, a.region, Origin::PluginObject, a.target));
    }
  }
}

/// TrainingArguments / TRL configs (transformers 5.17 `_process_fsdp_args`, training_args.py:2734-2896).
/// One TrainingArguments-like call (a literal call in the script, or the script's command-line arguments turned
/// into one by the binder).
void collect_trainer_call(const Document& doc, const PyCall& c, Launch& l) {
  {
    const bool trl = is_trl_config(c.name);
    const std::string spelled_base = c.name + "(";
    if (const PyArg* gc = c.keyword("gradient_checkpointing")) {
      Value v = gc->value.kind == ValueKind::Bool ? gc->value : Value::unknown(gc->region);
      v.region = gc->region;
      add_call_setting(l, doc, c, *gc, keys::kGradientCheckpointing, v, Origin::TrainingArguments);
    } else {
      Value v = c.has_unresolved_unpacking ? Value::unknown(c.callee_region) : Value::of_bool(trl, c.callee_region);
      Setting s = make_setting(keys::kGradientCheckpointing, v, Value{}, doc, c.callee_region,
                               Origin::TrainingArguments, c.name + "(...) default");
      l.add(std::move(s));
    }
    // TrainingArguments.mixed_precision starts from the launcher's env and bf16/fp16 override it
    // (training_args.py:1580-1586).
    for (const char* mp : {"bf16", "fp16"}) {
      const PyArg* a = c.keyword(mp);
      if (a != nullptr && a->value.kind == ValueKind::Bool && a->value.boolean) {
        l.add(make_setting(keys::kMixedPrecision, Value::of_string(mp, a->region), a->value, doc, a->region,
                           Origin::TrainingArguments, spelled_base + mp + "=)"));
      }
    }
    const PyArg* fsdp = c.keyword("fsdp");
    if (fsdp == nullptr) return;
    const Value& fv = fsdp->value;
    std::vector<std::string> words;
    bool enabled = false;
    bool known = true;
    if (fv.kind == ValueKind::Bool) {
      enabled = fv.boolean;
    } else if (fv.kind == ValueKind::String) {
      std::string w;
      for (char ch : fv.text + " ") {
        if (ch == ' ' || ch == '\t') {
          if (!w.empty()) words.push_back(w);
          w.clear();
        } else {
          w += ch;
        }
      }
      enabled = !words.empty();
    } else if (fv.kind == ValueKind::List) {
      for (const Value& it : fv.items) {
        if (it.kind != ValueKind::String) known = false;
        else words.push_back(it.text);
      }
      enabled = !fv.items.empty();
    } else if (fv.kind == ValueKind::None) {
      enabled = false;
    } else {
      known = false;
    }
    if (!known) {
      l.add(make_setting(keys::kFsdpEnabled, Value::unknown(fsdp->region), fv, doc, fsdp->region,
                         Origin::TrainingArguments, spelled_base + "fsdp=)"));
      return;
    }
    // `fsdp` unset or false: the Trainer leaves FSDP to the launcher's environment.
    if (!enabled) return;
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, fsdp->region), fv, doc, fsdp->region,
                       Origin::TrainingArguments, spelled_base + "fsdp=)"));
    // fsdp_config: a dict literal (keys with `fsdp_` stripped) or a path to a JSON file (bound later).
    const PyArg* cfg = c.keyword("fsdp_config");
    const Value* cfg_dict = (cfg != nullptr && cfg->value.kind == ValueKind::Dict) ? &cfg->value : nullptr;
    const bool cfg_unknown = cfg != nullptr && cfg_dict == nullptr && cfg->value.kind != ValueKind::None;
    auto cfg_get = [&](std::string_view key) -> const Value* {
      if (cfg_dict == nullptr) return nullptr;
      const Value* found = nullptr;
      for (const auto& [k, v] : cfg_dict->fields) {
        std::string_view kk = k;
        if (kk.starts_with("fsdp_")) kk.remove_prefix(5);
        if (kk == key) found = &v;
      }
      return found;
    };
    const Value* version_v = cfg_get("version");
    int version = 2;
    if (version_v != nullptr) {
      if (version_v->kind == ValueKind::Int) version = static_cast<int>(version_v->integer);
      else if (version_v->kind == ValueKind::String && (version_v->text == "1" || version_v->text == "2"))
        version = version_v->text[0] - '0';
      else version = 0;
    } else if (cfg_unknown) {
      version = 0;
    }
    const source::Region vr = version_v != nullptr ? version_v->region : fsdp->region;
    l.add(make_setting(keys::kFsdpVersion, version != 0 ? Value::of_int(version, vr) : Value::unknown(vr),
                       version_v != nullptr ? *version_v : Value{}, doc, vr, Origin::TrainingArguments,
                       version_v != nullptr ? "fsdp_config.version" : spelled_base + "fsdp=) default version"));
    if (version == 2) {
      const Value* raf = cfg_get("reshard_after_forward");
      if (raf != nullptr) {
        Value v = raf->kind == ValueKind::Bool ? *raf : Value::unknown(raf->region);
        if (raf->kind == ValueKind::String) {
          if (auto t = parse_truth(raf->text)) v = Value::of_bool(*t, raf->region);
        }
        v.region = raf->region;
        l.add(make_setting(keys::kReshardAfterForward, v, *raf, doc, raf->region, Origin::TrainingArguments,
                           "fsdp_config.reshard_after_forward"));
      } else if (!cfg_unknown) {
        // The first sharding word decides (setdefault, training_args.py:2876-2883); default True.
        std::optional<bool> from_words;
        for (const std::string& w : words) {
          if (w == "full_shard") from_words = from_words.value_or(true);
          if (w == "shard_grad_op") from_words = from_words.value_or(false);
        }
        l.add(make_setting(keys::kReshardAfterForward, Value::of_bool(from_words.value_or(true), fsdp->region), fv,
                           doc, fsdp->region, Origin::TrainingArguments, spelled_base + "fsdp=)"));
      }
    }
    if (version == 1) {
      // FSDP1: the Trainer passes its strategy word as reshard_after_forward; the plugin then fills
      // sharding_strategy from FSDP_SHARDING_STRATEGY or FULL_SHARD, which wins (knowledge §3.4, probes T4, T6).
      std::string word = "full_shard";
      for (const std::string& w : words) {
        if (acc::parse_strategy(w)) {
          word = w;
          break;
        }
      }
      Setting s = make_setting(keys::kShardingStrategy, Value::of_string(upper(word), fsdp->region), fv, doc,
                               fsdp->region, Origin::TrainingArguments, spelled_base + "fsdp=)");
      s.source = SourceKind::TrainerFsdp1StrategyWord;
      l.add(std::move(s));
    }
    if (const Value* ac = cfg_get("activation_checkpointing")) {
      Value v = *ac;
      if (auto t = truth_of(*ac)) v = Value::of_bool(*t, ac->region);
      else v = Value::unknown(ac->region);
      l.add(make_setting(keys::kActivationCheckpointing, v, *ac, doc, ac->region, Origin::TrainingArguments,
                         "fsdp_config.activation_checkpointing"));
    }
    // Keys the Trainer always passes to its plugin (training_args.py:2784-2841), so they beat the launcher's env.
    if (!cfg_unknown) {
      auto emit = [&](std::string_view key, const char* cfg_key, Value fallback, bool truth) {
        const Value* v = cfg_get(cfg_key);
        Value val = v != nullptr ? *v : fallback;
        if (v != nullptr && truth) {
          if (auto t = truth_of(*v)) val = Value::of_bool(*t, v->region);
        } else if (v != nullptr && val.kind == ValueKind::String) {
          val = normalise_fsdp_value("fsdp_" + std::string(cfg_key), val);
        }
        const source::Region r = v != nullptr ? v->region : fsdp->region;
        val.region = r;
        l.add(make_setting(key, val, v != nullptr ? *v : Value{}, doc, r, Origin::TrainingArguments,
                           v != nullptr ? "fsdp_config." + std::string(cfg_key)
                                        : spelled_base + "fsdp=) default " + std::string(cfg_key)));
      };
      emit(keys::kCpuRamEfficientLoading, "cpu_ram_efficient_loading", Value::of_bool(false), true);
      emit(keys::kStateDictType, "state_dict_type", Value::of_string("FULL_STATE_DICT"), false);
      if (version == 1) {
        emit(keys::kForwardPrefetch, "forward_prefetch", Value::of_bool(false), true);
        emit(keys::kBackwardPrefetch, "backward_prefetch", Value::of_string("NO_PREFETCH"), false);
        emit(keys::kUseOrigParams, "use_orig_params", Value::of_bool(true), true);
        emit(keys::kSyncModuleStates, "sync_module_states", Value::of_bool(true), true);
      }
      if (const Value* off = cfg_get("cpu_offload"); off != nullptr && truth_of(*off).value_or(false)) {
        l.add(make_setting(keys::kOffloadParams, Value::of_bool(true, off->region), *off, doc, off->region,
                           Origin::TrainingArguments, "fsdp_config.cpu_offload"));
      }
      bool offload_word = false;
      for (const std::string& w : words) offload_word |= w == "offload";
      if (offload_word) {
        l.add(make_setting(keys::kOffloadParams, Value::of_bool(true, fsdp->region), fv, doc, fsdp->region,
                           Origin::TrainingArguments, spelled_base + "fsdp=) offload"));
      }
      const Value* policy = cfg_get("auto_wrap_policy");
      if (const Value* minp = cfg_get("min_num_params");
          minp != nullptr && policy != nullptr && policy->kind == ValueKind::String && policy->text == "SIZE_BASED_WRAP") {
        l.add(make_setting(keys::kMinNumParams, *minp, *minp, doc, minp->region, Origin::TrainingArguments,
                           "fsdp_config.min_num_params"));
      }
      if (const Value* cls = cfg_get("transformer_layer_cls_to_wrap")) {
        l.add(make_setting(keys::kTransformerLayerCls, *cls, *cls, doc, cls->region, Origin::TrainingArguments,
                           "fsdp_config.transformer_layer_cls_to_wrap"));
      }
    }
    if (!cfg_unknown) {
      const Value* awp = cfg_get("auto_wrap_policy");
      l.add(make_setting(keys::kAutoWrapPolicy,
                         awp != nullptr ? *awp : Value::of_string("TRANSFORMER_BASED_WRAP", fsdp->region),
                         awp != nullptr ? *awp : Value{}, doc, awp != nullptr ? awp->region : fsdp->region,
                         Origin::TrainingArguments,
                         awp != nullptr ? "fsdp_config.auto_wrap_policy" : spelled_base + "fsdp=) default"));
    }
  }
}

void collect_training_arguments(const Document& doc, const PythonFacts& py, Launch& l) {
  for (const PyCall& c : py.calls) {
    if (is_trl_config(c.name) || is_trainer_args(c.name)) collect_trainer_call(doc, c, l);
  }
}

/// Calls that turn activation checkpointing on in the script itself.
void collect_checkpointing_calls(const Document& doc, const PythonFacts& py, Launch& l) {
  for (const PyCall& c : py.calls) {
    if (c.name == "gradient_checkpointing_enable") {
      l.add(make_setting(keys::kModelGradientCheckpointing, Value::of_bool(true, c.region), Value{}, doc, c.region,
                         Origin::ScriptCall, c.callee + "()"));
    } else if (c.name == "prepare_model_for_kbit_training") {
      // peft enables gradient checkpointing here unless use_gradient_checkpointing=False.
      const PyArg* a = c.keyword("use_gradient_checkpointing");
      Value v = Value::of_bool(true, c.region);
      if (a != nullptr) v = a->value.kind == ValueKind::Bool ? a->value : Value::unknown(a->region);
      v.region = a != nullptr ? a->region : c.region;
      l.add(make_setting(keys::kModelGradientCheckpointing, v, Value{}, doc, v.region, Origin::ScriptCall,
                         c.callee + "()"));
    } else if (c.name == "apply_activation_checkpointing" || c.name == "checkpoint_wrapper" ||
               c.name == "checkpoint_sequential" ||
               (c.name == "checkpoint" && c.callee.find("checkpoint.checkpoint") != std::string::npos)) {
      l.add(make_setting(keys::kApplyActivationCheckpointing, Value::of_bool(true, c.region), Value{}, doc, c.region,
                         Origin::ScriptCall, c.callee + "()"));
    }
  }
  for (const PyAttributeAssignment& a : py.attribute_assignments) {
    if (a.attribute == "gradient_checkpointing" && a.target.find("args") == std::string::npos) {
      Value v = a.value.kind == ValueKind::Bool ? a.value : Value::unknown(a.region);
      v.region = a.region;
      l.add(make_setting(keys::kModelGradientCheckpointing, v, a.value, doc, a.region, Origin::ScriptCall, a.target));
    } else if (a.attribute == "gradient_checkpointing") {
      Value v = a.value.kind == ValueKind::Bool ? a.value : Value::unknown(a.region);
      v.region = a.region;
      l.add(make_setting(keys::kGradientCheckpointing, v, a.value, doc, a.region, Origin::TrainingArguments,
                         a.target));
    }
  }
}

/// A script alone: later assignments of one mechanism win, Python objects beat what the launcher would export
/// (unknown here), and a torch-level call decides for the model it wraps.
void resolve_python(Launch& l) {
  static constexpr std::array<std::string_view, 10> kKeys = {
      keys::kFsdpEnabled,        keys::kFsdpVersion,       keys::kShardingStrategy,
      keys::kReshardAfterForward, keys::kActivationCheckpointing, keys::kAutoWrapPolicy,
      keys::kGradientCheckpointing, keys::kModelGradientCheckpointing, keys::kApplyActivationCheckpointing,
      keys::kLightningAcPolicy};
  for (std::string_view key : kKeys) decide(l, key, std::nullopt, "not set in the script");
  for (const acc::FsdpKey& k : acc::fsdp_keys()) {
    if (l.get(k.canonical) == nullptr) decide(l, k.canonical, std::nullopt, "not set in the script");
  }
}

// ---------------------------------------------------------------------------------------------------------------
// torchtitan TOML and axolotl YAML

void collect_torchtitan(const Document& doc, Launch& l) {
  const parse::Node* root = doc.root_map();
  if (root == nullptr) return;
  const parse::Node* par = root->find("parallelism");
  std::int64_t dp_shard = -1;
  if (par != nullptr && par->is_map()) {
    if (const parse::Node* n = par->find("data_parallel_shard_degree"); n != nullptr && n->kind == parse::NodeKind::Int)
      dp_shard = n->integer;
    if (const parse::Entry* e = par->find_entry("fsdp_reshard_after_forward")) {
      const Value w = value_of(e->value);
      Value v = Value::unknown(e->value.region);
      if (w.kind == ValueKind::String && w.text == "never") v = Value::of_bool(false, e->value.region);
      if (w.kind == ValueKind::String && w.text == "always") v = Value::of_bool(true, e->value.region);
      l.add(make_setting(keys::kReshardAfterForward, v, w, doc, e->value.region, Origin::TorchtitanConfig,
                         "parallelism.fsdp_reshard_after_forward"));
    }
  }
  // FSDP is on when dp_shard > 1 or -1 (the leftover ranks) or cp > 1 (parallel_dims.py:314-372).
  const source::Region r = par != nullptr ? par->region : source::Region{};
  l.add(make_setting(keys::kFsdpEnabled, dp_shard == 1 ? Value::unknown(r) : Value::of_bool(true, r), Value{}, doc, r,
                     Origin::TorchtitanConfig, "parallelism.data_parallel_shard_degree"));
  l.add(make_setting(keys::kFsdpVersion, Value::of_int(2, r), Value{}, doc, r, Origin::TorchtitanConfig, "torchtitan"));
  const parse::Node* ac = root->find("activation_checkpoint");
  const parse::Entry* mode = (ac != nullptr && ac->is_map()) ? ac->find_entry("mode") : nullptr;
  if (mode != nullptr) {
    l.add(make_setting(keys::kTorchtitanAcMode, value_of(mode->value), value_of(mode->value), doc, mode->value.region,
                       Origin::TorchtitanConfig, "activation_checkpoint.mode"));
  } else {
    l.add(default_setting(keys::kTorchtitanAcMode, Value::of_string("selective"), SourceKind::LibraryDefault, "torchtitan default"));
  }
  decide(l, keys::kFsdpEnabled, std::nullopt);
  decide(l, keys::kFsdpVersion, std::nullopt);
  decide(l, keys::kReshardAfterForward, std::nullopt, "torchtitan default depends on pipeline parallelism");
  decide(l, keys::kTorchtitanAcMode, std::nullopt);
}

void collect_axolotl(const Document& doc, Launch& l) {
  const parse::Node* root = doc.root_map();
  if (root == nullptr) return;
  const parse::Entry* fsdp = root->find_entry("fsdp");
  const parse::Node* cfg = root->find("fsdp_config");
  const bool has_fsdp = (fsdp != nullptr && fsdp->value.kind != parse::NodeKind::Null &&
                         !(fsdp->value.kind == parse::NodeKind::Sequence && fsdp->value.items.empty())) ||
                        (cfg != nullptr && cfg->is_map() && !cfg->entries.empty());
  auto cfg_entry = [&](std::string_view key) -> const parse::Entry* {
    if (cfg == nullptr || !cfg->is_map()) return nullptr;
    const parse::Entry* found = nullptr;
    for (const parse::Entry& e : cfg->entries) {
      std::string_view k = e.key.text;
      if (k.starts_with("fsdp_")) k.remove_prefix(5);
      if (k == key) found = &e;
    }
    return found;
  };
  if (has_fsdp) {
    const source::Region r = fsdp != nullptr ? fsdp->key.region : root->find_entry("fsdp_config")->key.region;
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, r), Value{}, doc, r, Origin::AxolotlConfig, "fsdp"));
    // axolotl pins a missing version to 1 (axolotl:src/axolotl/utils/schemas/validation.py:1118-1123).
    const parse::Entry* ver = root->find_entry("fsdp_version");
    if (ver == nullptr) ver = cfg_entry("version");
    Value vv = ver != nullptr ? value_of(ver->value) : Value::of_int(1, r);
    if (vv.kind == ValueKind::String && (vv.text == "1" || vv.text == "2")) vv = Value::of_int(vv.text[0] - '0', vv.region);
    l.add(make_setting(keys::kFsdpVersion, vv, vv, doc, ver != nullptr ? ver->value.region : r, Origin::AxolotlConfig,
                       ver != nullptr ? ver->key.text : "fsdp_version (axolotl default 1)"));
    if (vv.kind == ValueKind::Int && vv.integer == 2) {
      if (const parse::Entry* raf = cfg_entry("reshard_after_forward")) {
        const Value w = value_of(raf->value);
        Value v = Value::unknown(raf->value.region);
        if (auto t = truth_of(w)) v = Value::of_bool(*t, raf->value.region);
        l.add(make_setting(keys::kReshardAfterForward, v, w, doc, raf->value.region, Origin::AxolotlConfig,
                           "fsdp_config." + raf->key.text));
      }
    }
    if (const parse::Entry* ac = cfg_entry("activation_checkpointing")) {
      const Value w = value_of(ac->value);
      Value v = Value::unknown(ac->value.region);
      if (auto t = truth_of(w)) v = Value::of_bool(*t, ac->value.region);
      l.add(make_setting(keys::kActivationCheckpointing, v, w, doc, ac->value.region, Origin::AxolotlConfig,
                         "fsdp_config." + ac->key.text));
    }
  }
  if (const parse::Entry* gc = root->find_entry("gradient_checkpointing")) {
    const Value w = value_of(gc->value);
    Value v = Value::unknown(gc->value.region);
    if (w.kind == ValueKind::Bool) v = w;
    // axolotl also accepts "unsloth" / "offload" strings: checkpointing on.
    if (w.kind == ValueKind::String) v = Value::of_bool(true, gc->value.region);
    l.add(make_setting(keys::kGradientCheckpointing, v, w, doc, gc->value.region, Origin::AxolotlConfig,
                       gc->key.text));
  } else {
    l.add(default_setting(keys::kGradientCheckpointing, Value::of_bool(false), SourceKind::LibraryDefault, "axolotl default"));
  }
  for (std::string_view key : {keys::kFsdpEnabled, keys::kFsdpVersion, keys::kReshardAfterForward,
                               keys::kActivationCheckpointing, keys::kGradientCheckpointing}) {
    decide(l, key, std::nullopt);
  }
}

}  // namespace

Value value_of(const parse::Node& node) {
  Value v;
  v.region = node.region;
  switch (node.kind) {
    case parse::NodeKind::Null:
      v.kind = ValueKind::None;
      break;
    case parse::NodeKind::Bool:
      v.kind = ValueKind::Bool;
      v.boolean = node.boolean;
      v.text = node.text;
      break;
    case parse::NodeKind::Int:
      v.kind = ValueKind::Int;
      v.integer = node.integer;
      v.number = node.number;
      v.text = node.text;
      break;
    case parse::NodeKind::Float:
      v.kind = ValueKind::Float;
      v.number = node.number;
      v.text = node.text;
      break;
    case parse::NodeKind::String:
      v.kind = ValueKind::String;
      v.text = node.text;
      break;
    case parse::NodeKind::Sequence:
      v.kind = ValueKind::List;
      for (const parse::Node& it : node.items) v.items.push_back(value_of(it));
      break;
    case parse::NodeKind::Mapping:
      v.kind = ValueKind::Dict;
      for (const parse::Entry& e : node.entries) v.fields.emplace_back(e.key.text, value_of(e.value));
      break;
  }
  return v;
}

Value normalise_fsdp_value(std::string_view prefixed_key, const Value& written) {
  const acc::FsdpKey* info = acc::find_fsdp_key(prefixed_key);
  if (info == nullptr) return written;
  // YAML bools and ints reach accelerate as Python values, which the launcher stringifies (str(True) = "True").
  std::string text = written.text;
  if (written.kind == ValueKind::Bool) text = written.boolean ? "true" : "false";
  const bool scalar = written.kind == ValueKind::String || written.kind == ValueKind::Bool ||
                      written.kind == ValueKind::Int || written.kind == ValueKind::Enum;
  if (!scalar) return written;
  switch (info->type) {
    case acc::FsdpValueType::Truth:
      if (auto t = parse_truth(text)) return Value::of_bool(*t, written.region);
      return written;
    case acc::FsdpValueType::Strategy:
      if (auto s = acc::parse_strategy(text)) return Value::of_string(std::string(*s), written.region);
      return written;
    case acc::FsdpValueType::ReshardAfterForward:
      // Kept as a truth value when it is one (FSDP2), else as a strategy name (FSDP1 spelling).
      if (auto t = parse_truth(text)) return Value::of_bool(*t, written.region);
      if (auto s = acc::parse_strategy(text)) return Value::of_string(std::string(*s), written.region);
      return written;
    case acc::FsdpValueType::Version:
      if (text == "1" || text == "2") return Value::of_int(text[0] - '0', written.region);
      return written;
    case acc::FsdpValueType::WrapPolicy:
      if (auto s = acc::parse_choice(acc::wrap_policies(), text)) return Value::of_string(std::string(*s), written.region);
      return written;
    case acc::FsdpValueType::BackwardPrefetch:
      if (auto s = acc::parse_choice(acc::backward_prefetches(), text))
        return Value::of_string(std::string(*s), written.region);
      if (text.size() == 1 && text[0] >= '1' && text[0] <= '3')
        return Value::of_string(std::string(acc::backward_prefetches()[text[0] - '1']), written.region);
      return written;
    case acc::FsdpValueType::StateDictType:
      if (auto s = acc::parse_choice(acc::state_dict_types(), text))
        return Value::of_string(std::string(*s), written.region);
      if (text.size() == 1 && text[0] >= '1' && text[0] <= '3')
        return Value::of_string(std::string(acc::state_dict_types()[text[0] - '1']), written.region);
      return written;
    case acc::FsdpValueType::Int:
      // The launcher passes strings; int("100000000") is what the plugin does with them.
      if (written.kind == ValueKind::String && !text.empty() &&
          text.find_first_not_of("0123456789") == std::string::npos) {
        if (const auto n = parse::parse_int(text)) return Value::of_int(*n, written.region);
      }
      return written;
    case acc::FsdpValueType::String:
      return written;
  }
  return written;
}

CheckpointingState activation_checkpointing(const Launch& launch) {
  using S = CheckpointingState::State;
  CheckpointingState out{S::Off, nullptr};
  const Effective* enabled = launch.get(keys::kFsdpEnabled);
  const bool torch_level = enabled != nullptr && enabled->decided_by != nullptr &&
                           (enabled->decided_by->origin == Origin::TorchCall ||
                            enabled->decided_by->origin == Origin::LightningStrategy ||
                            enabled->decided_by->origin == Origin::TorchtitanConfig ||
                            // axolotl writes FSDP_ACTIVATION_CHECKPOINTING only from its own fsdp_config.
                            enabled->decided_by->origin == Origin::AxolotlConfig);
  // absent_is_unknown: no assignment at all means "whatever the launcher exports" rather than "off".
  auto consider = [&](std::string_view key, bool absent_is_unknown) {
    const Effective* e = launch.get(key);
    if (e == nullptr) return;
    if (e->decided_by == nullptr && !absent_is_unknown) return;
    const Value& v = e->value;
    if (key == keys::kTorchtitanAcMode) {
      if (v.kind == ValueKind::String && v.text == "none") return;
      if (v.kind == ValueKind::String) {
        out = {S::On, e->decided_by};
        return;
      }
    }
    if (v.kind == ValueKind::Bool) {
      if (v.boolean && out.state != S::On) out = {S::On, e->decided_by};
      return;
    }
    if (out.state == S::Off) out = {S::Unknown, e->decided_by};
  };
  // The accelerate plugin field only matters where accelerate builds the FSDP wrapper; when the script alone
  // is linted, the launcher's environment may still turn it on (unknown).
  consider(keys::kActivationCheckpointing, !torch_level);
  consider(keys::kGradientCheckpointing, false);
  consider(keys::kModelGradientCheckpointing, false);
  consider(keys::kApplyActivationCheckpointing, false);
  consider(keys::kLightningAcPolicy, false);
  consider(keys::kTorchtitanAcMode, false);
  // An assignment that is not statically known anywhere in the launch also makes the answer unknown.
  if (out.state == S::Off) {
    for (std::string_view key : {keys::kGradientCheckpointing, keys::kModelGradientCheckpointing,
                                 keys::kActivationCheckpointing}) {
      for (const Setting* s : launch.assignments(key)) {
        if (s->value.kind == ValueKind::Unknown && (key != keys::kActivationCheckpointing || !torch_level))
          out = {S::Unknown, s};
      }
    }
  }
  return out;
}

std::optional<bool> keeps_params_unsharded(const Launch& launch, const Setting** site) {
  const auto version = launch.fsdp_version();
  if (!version) return std::nullopt;
  const std::string_view key = *version == 1 ? keys::kShardingStrategy : keys::kReshardAfterForward;
  const Effective* e = launch.get(key);
  if (e == nullptr) return std::nullopt;
  if (site != nullptr) *site = e->decided_by;
  const Value& v = e->value;
  if (*version == 1) {
    if (v.kind != ValueKind::String) return std::nullopt;
    return accelerate::keeps_params_between_passes(v.text);
  }
  if (v.kind != ValueKind::Bool) return std::nullopt;
  return !v.boolean;
}

Launch resolve_file(const Document& doc) {
  Launch l;
  l.name = doc.path();
  l.documents.push_back(&doc);
  l.per_file = true;
  switch (doc.kind) {
    case DocKind::AccelerateConfig:
      l.launcher = Launcher::AccelerateLaunch;
      collect_accelerate_config(doc, l);
      resolve_accelerate_launch(l);
      mark_unread(l);
      break;
    case DocKind::PythonScript:
      if (doc.python) {
        collect_torch_calls(doc, *doc.python, l);
        collect_plugin(doc, *doc.python, l);
        collect_training_arguments(doc, *doc.python, l);
        collect_checkpointing_calls(doc, *doc.python, l);
      }
      resolve_python(l);
      break;
    case DocKind::TorchtitanConfig:
      l.launcher = Launcher::Torchtitan;
      collect_torchtitan(doc, l);
      break;
    case DocKind::AxolotlConfig:
      collect_axolotl(doc, l);
      break;
    default:
      break;
  }
  return l;
}


namespace {

/// HfArgumentParser's string_to_bool (yes/true/t/y/1, no/false/f/n/0), nullopt otherwise.
std::optional<bool> hf_bool(const std::string& s) {
  std::string l = s;
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "yes" || l == "true" || l == "t" || l == "y" || l == "1") return true;
  if (l == "no" || l == "false" || l == "f" || l == "n" || l == "0") return false;
  return std::nullopt;
}

/// The TrainingArguments dataclass an HfArgumentParser / TrlParser in the script builds, if any.
std::optional<std::string> parser_config_class(const PythonFacts& py) {
  for (const PyCall& c : py.calls) {
    if (c.name != "HfArgumentParser" && c.name != "TrlParser") continue;
    std::string cls = "TrainingArguments";
    for (const PyArg& a : c.args) {
      const Value& v = a.value;
      auto look = [&](const Value& x) {
        if (x.kind == ValueKind::Object || x.kind == ValueKind::Enum || x.kind == ValueKind::String) {
          const std::string name = x.kind == ValueKind::Enum ? x.text : x.text.substr(x.text.rfind('.') + 1);
          if (is_trl_config(name) || is_trainer_args(name)) cls = name;
        }
      };
      look(v);
      for (const Value& it : v.items) look(it);
    }
    return cls;
  }
  return std::nullopt;
}

/// Turns the script's command-line arguments into the TrainingArguments call HfArgumentParser would build.
void collect_trainer_cli(const Document& script_doc, const LaunchCommand& cmd, const std::string& cls,
                         const Document* fsdp_config_doc, Launch& l) {
  PyCall call;
  call.name = cls;
  call.callee = cls;
  call.region = cmd.region;
  call.callee_region = cmd.script ? cmd.script->region : cmd.region;
  const auto args = script_arguments(cmd.script_args);
  for (const ScriptArg& a : args) {
    PyArg p;
    p.name = a.name;
    p.region = a.region;
    p.name_region = a.region;
    if (!a.value) {
      // A bare boolean flag means True (nargs="?", const=True).
      p.value = Value::of_bool(true, a.region);
    } else if (!a.value->known) {
      p.value = Value::unknown(a.value->region);
    } else if (a.name == "fsdp_config") {
      if (fsdp_config_doc != nullptr && fsdp_config_doc->root_map() != nullptr) {
        p.value = value_of(*fsdp_config_doc->root_map());
      } else {
        p.value = Value::unknown(a.value->region);
      }
    } else if (auto b = hf_bool(a.value->text); b && a.name != "fsdp") {
      p.value = Value::of_bool(*b, a.value->region);
    } else {
      p.value = Value::of_string(a.value->text, a.value->region);
    }
    call.args.push_back(std::move(p));
  }
  collect_trainer_call(script_doc, call, l);
}

/// Environment variables of the launch script that the FSDP plugin reads (§3.3).
void collect_environment(const Document& script_doc, const LaunchCommand& cmd, Launch& l, bool launcher_overwrites) {
  struct EnvKey {
    const char* var;
    const char* prefixed;
    bool always_written;  ///< `accelerate launch` always exports it (utils/launch.py:304-332)
  };
  static constexpr EnvKey kEnv[] = {
      {"FSDP_VERSION", "fsdp_version", true},
      {"FSDP_SHARDING_STRATEGY", "fsdp_sharding_strategy", true},
      {"FSDP_RESHARD_AFTER_FORWARD", "fsdp_reshard_after_forward", true},
      {"FSDP_OFFLOAD_PARAMS", "fsdp_offload_params", true},
      {"FSDP_MIN_NUM_PARAMS", "fsdp_min_num_params", true},
      {"FSDP_AUTO_WRAP_POLICY", "fsdp_auto_wrap_policy", false},
      {"FSDP_TRANSFORMER_CLS_TO_WRAP", "fsdp_transformer_layer_cls_to_wrap", false},
      {"FSDP_BACKWARD_PREFETCH", "fsdp_backward_prefetch", false},
      {"FSDP_STATE_DICT_TYPE", "fsdp_state_dict_type", false},
      {"FSDP_FORWARD_PREFETCH", "fsdp_forward_prefetch", true},
      {"FSDP_USE_ORIG_PARAMS", "fsdp_use_orig_params", true},
      {"FSDP_CPU_RAM_EFFICIENT_LOADING", "fsdp_cpu_ram_efficient_loading", true},
      {"FSDP_SYNC_MODULE_STATES", "fsdp_sync_module_states", true},
      {"FSDP_ACTIVATION_CHECKPOINTING", "fsdp_activation_checkpointing", true},
  };
  for (const EnvKey& k : kEnv) {
    auto it = cmd.env.find(k.var);
    if (it == cmd.env.end()) continue;
    const acc::FsdpKey* info = acc::find_fsdp_key(k.prefixed);
    const Word& w = it->second;
    Value written = w.known ? Value::of_string(w.text, w.region) : Value::unknown(w.region);
    Value v = w.known ? normalise_fsdp_value(k.prefixed, written) : written;
    Setting s = make_setting(info->canonical, v, written, script_doc, w.region, Origin::Environment, k.var);
    if (launcher_overwrites && k.always_written) s.source = SourceKind::EnvOverwrittenByLauncher;
    l.add(std::move(s));
  }
  if (auto it = cmd.env.find("ACCELERATE_USE_FSDP"); it != cmd.env.end() && !launcher_overwrites) {
    // accelerate enables FSDP from the environment only for the exact string "true" (accelerator.py:387-396).
    const Word& w = it->second;
    Value v = w.known ? Value::of_bool(w.text == "true" || w.text == "True" || w.text == "TRUE", w.region)
                      : Value::unknown(w.region);
    l.add(make_setting(keys::kFsdpEnabled, v, Value::of_string(w.text), script_doc, w.region, Origin::Environment,
                       "ACCELERATE_USE_FSDP"));
  }
}

void collect_launch_flags(const Document& script_doc, const LaunchCommand& cmd, Launch& l) {
  for (const Flag& f : cmd.flags) {
    const std::string spelled = "--" + f.name;
    auto add = [&](std::string_view key, Value v) {
      Value written = f.value ? Value::of_string(f.value->text, f.value->region) : Value::of_bool(true, f.region);
      if (f.value && !f.value->known) v = Value::unknown(f.value->region);
      v.region = f.region;
      l.add(make_setting(key, v, written, script_doc, f.region, Origin::LaunchFlag, spelled));
    };
    static const std::map<std::string, std::string> kParadigm = {
        {"multi_gpu", "MULTI_GPU"}, {"use_deepspeed", "DEEPSPEED"}, {"use_fsdp", "FSDP"},
        {"cpu", "MULTI_CPU"},       {"tpu", "XLA"},                 {"use_megatron_lm", "MEGATRON_LM"}};
    if (auto p = kParadigm.find(f.name); p != kParadigm.end()) {
      add(keys::kDistributedType, Value::of_string(p->second));
    } else if ((f.name == "num_processes" || f.name == "num_machines") && f.value) {
      Value v = Value::unknown();
      if (const auto n = int_of(&*f.value)) v = Value::of_int(*n);
      add(f.name == "num_processes" ? keys::kNumProcesses : keys::kNumMachines, v);
    } else if (f.name == "mixed_precision" && f.value) {
      add(keys::kMixedPrecision, Value::of_string(f.value->text));
    } else if (f.name.starts_with("fsdp_") && f.value) {
      if (const acc::FsdpKey* info = acc::find_fsdp_key(f.name))
        add(info->canonical, normalise_fsdp_value(f.name, Value::of_string(f.value->text)));
    }
  }
}

void decide_all_fsdp(Launch& l, bool launcher_defaults) {
  for (const acc::FsdpKey& k : acc::fsdp_keys()) {
    std::optional<Setting> fallback;
    if (launcher_defaults && !k.launch_default.empty()) {
      fallback = default_setting(k.canonical,
                                 normalise_fsdp_value(k.name, Value::of_string(std::string(k.launch_default))),
                                 SourceKind::LauncherDefault, "accelerate launch default of --" + std::string(k.name));
    } else if (k.canonical == keys::kAutoWrapPolicy) {
      fallback = default_setting(k.canonical, Value::of_string("NO_WRAP"),
                                 SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default when no wrap policy is set");
    } else if (k.canonical == keys::kBackwardPrefetch) {
      fallback = default_setting(k.canonical, Value::of_string("NO_PREFETCH"),
                                 SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default (None: no backward prefetch)");
    } else if (!launcher_defaults) {
      // Plugin defaults without the launcher's environment (dataclasses.py:1815-2034).
      if (k.canonical == keys::kFsdpVersion) fallback = default_setting(k.canonical, Value::of_int(1), SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default");
      if (k.canonical == keys::kShardingStrategy) fallback = default_setting(k.canonical, Value::of_string("FULL_SHARD"), SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default");
      if (k.canonical == keys::kReshardAfterForward) fallback = default_setting(k.canonical, Value::of_bool(true), SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default");
      if (k.type == acc::FsdpValueType::Truth) fallback = default_setting(k.canonical, Value::of_bool(false), SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default");
    }
    decide(l, k.canonical, std::move(fallback));
  }
  if (l.get(keys::kStateDictType)->decided_by == nullptr) {
    if (const auto v = l.fsdp_version()) {
      decide(l, keys::kStateDictType,
                          default_setting(keys::kStateDictType,
                                          Value::of_string(*v == 2 ? "SHARDED_STATE_DICT" : "FULL_STATE_DICT"),
                                          SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default"));
    }
  }
}

/// Keys the effective FSDP version never reads become "not read" in the effective view (their assignments stay).
void mark_unread(Launch& l) {
  const auto v = l.fsdp_version();
  if (!v) return;
  if (*v == 1) {
    // The FSDP1 plugin forces sync_module_states on when cpu_ram_efficient_loading is on, with a warning
    // (dataclasses.py:1966-1971; probes J2, T12).
    const Value& cre = l.value(keys::kCpuRamEfficientLoading);
    const Value& sync = l.value(keys::kSyncModuleStates);
    if (cre.kind == ValueKind::Bool && cre.boolean && sync.kind == ValueKind::Bool && !sync.boolean) {
      Setting forced = default_setting(keys::kSyncModuleStates, Value::of_bool(true),
                                       SourceKind::LibraryDefault, "forced on by the FSDP1 plugin because cpu_ram_efficient_loading is on");
      const Setting* f = l.add(std::move(forced));
      std::vector<const Setting*> ranked{f};
      for (const Setting* o : l.assignments(keys::kSyncModuleStates)) {
        if (o != f) ranked.push_back(o);
      }
      l.decide(keys::kSyncModuleStates, std::move(ranked), "the FSDP1 plugin forces it when cpu_ram_efficient_loading is on");
    }
    l.set_unknown(keys::kReshardAfterForward, "not read by FSDP1: the strategy comes from fsdp_sharding_strategy");
  } else {
    for (std::string_view key : {keys::kShardingStrategy, keys::kBackwardPrefetch, keys::kForwardPrefetch,
                                 keys::kUseOrigParams, keys::kSyncModuleStates}) {
      l.set_unknown(key, "not read by FSDP2");
    }
  }
}

}  // namespace

Launch resolve_bound(const BoundInputs& in) {
  Launch l;
  const LaunchCommand& cmd = *in.command;
  l.per_file = false;
  l.command_document = in.script_doc;
  l.command_region = cmd.region;
  l.command = cmd;
  l.name = in.script_doc->path() + ":" + std::to_string(cmd.region.begin.line);
  for (const Document* d : {in.script_doc, in.accelerate_config, in.python, in.trainer_fsdp_config, in.deepspeed,
                            in.torchtitan, in.axolotl, in.llamafactory}) {
    if (d != nullptr) l.documents.push_back(d);
  }
  const PythonFacts* py = in.python != nullptr && in.python->python ? &*in.python->python : nullptr;
  auto collect_script = [&] {
    if (py == nullptr) return;
    collect_torch_calls(*in.python, *py, l);
    collect_plugin(*in.python, *py, l);
    collect_training_arguments(*in.python, *py, l);
    collect_checkpointing_calls(*in.python, *py, l);
    if (auto cls = parser_config_class(*py)) collect_trainer_cli(*in.script_doc, cmd, *cls, in.trainer_fsdp_config, l);
  };

  switch (cmd.tool) {
    case LaunchTool::AccelerateLaunch: {
      l.launcher = Launcher::AccelerateLaunch;
      // What the launcher itself runs: a paradigm flag, else the config's distributed_type. Only under FSDP does
      // it export fsdp_config and the --fsdp_* defaults (utils/launch.py:304-332).
      std::optional<std::string> launcher_dt;
      for (const Flag& f : cmd.flags) {
        if (f.name == "use_fsdp") launcher_dt = "FSDP";
        else if (f.name == "multi_gpu" || f.name == "use_deepspeed" || f.name == "cpu" || f.name == "tpu" ||
                 f.name == "use_megatron_lm")
          launcher_dt = "OTHER";
      }
      if (!launcher_dt && in.accelerate_config != nullptr && in.accelerate_config->root_map() != nullptr) {
        if (const parse::Node* dt = in.accelerate_config->root_map()->find("distributed_type");
            dt != nullptr && dt->kind == parse::NodeKind::String)
          launcher_dt = dt->text;
      }
      const bool launcher_fsdp = launcher_dt.value_or("FSDP") == "FSDP";
      collect_environment(*in.script_doc, cmd, l, launcher_fsdp);
      if (in.accelerate_config != nullptr) collect_accelerate_config(*in.accelerate_config, l, launcher_fsdp);
      collect_launch_flags(*in.script_doc, cmd, l);
      collect_script();
      // `accelerate launch -m axolotl.cli.train cfg.yml`: axolotl builds the Trainer from its YAML.
      if (in.axolotl != nullptr) collect_axolotl(*in.axolotl, l);
      // A plugin passed to Accelerator (the Trainer's own, or the script's) turns FSDP on in the process whatever
      // the launcher chose (accelerator.py:393-396).
      for (const Setting* s : l.assignments(keys::kFsdpEnabled)) {
        if ((s->origin == Origin::PluginObject || s->origin == Origin::TrainingArguments) &&
            s->value.kind == ValueKind::Bool && s->value.boolean) {
          Setting dt = *s;
          dt.key = std::string(keys::kDistributedType);
          dt.value = Value::of_string("FSDP", s->region);
          l.add(std::move(dt));
          break;
        }
      }
      // distributed_type: a paradigm flag beats the config file (launch.py:1214-1242).
      decide(l, keys::kDistributedType, std::nullopt, "no config file and no paradigm flag");
      const Value& dt = l.value(keys::kDistributedType);
      if (dt.kind == ValueKind::String) {
        Setting s = *l.get(keys::kDistributedType)->decided_by;
        s.key = std::string(keys::kFsdpEnabled);
        s.value = Value::of_bool(dt.text == "FSDP", s.region);
        l.add(std::move(s));
      }
      decide(l, keys::kFsdpEnabled, std::nullopt, "distributed_type is not known");
      decide(l, keys::kNumProcesses, std::nullopt, "not set");
      decide(l, keys::kNumMachines, default_setting(keys::kNumMachines, Value::of_int(1), SourceKind::LibraryDefault, "accelerate default"));
      decide(l, keys::kMixedPrecision,
                          default_setting(keys::kMixedPrecision, Value::of_string("no"), SourceKind::LauncherDefault, "accelerate launch default"));
      const Value& np = l.value(keys::kNumProcesses);
      if (np.kind == ValueKind::Int && np.integer > 0) {
        Setting ws = *l.get(keys::kNumProcesses)->decided_by;
        ws.key = std::string(keys::kWorldSize);
        l.add(std::move(ws));
        decide(l, keys::kWorldSize, std::nullopt);
      } else {
        l.set_unknown(keys::kWorldSize, "num_processes is not known");
      }
      decide_all_fsdp(l, launcher_fsdp);
      mark_unread(l);
      break;
    }
    case LaunchTool::Torchrun:
    case LaunchTool::Python:
    case LaunchTool::DeepSpeed: {
      l.launcher = cmd.tool == LaunchTool::Torchrun ? Launcher::Torchrun
                   : cmd.tool == LaunchTool::Python ? Launcher::Python
                                                    : Launcher::DeepSpeed;
      collect_environment(*in.script_doc, cmd, l, false);
      collect_script();
      std::optional<std::int64_t> ws;
      if (cmd.tool == LaunchTool::Python) {
        ws = 1;
      } else if (cmd.tool == LaunchTool::Torchrun) {
        const Flag* n = find_flag(cmd, "nproc_per_node");
        const Flag* m = find_flag(cmd, "nnodes");
        const auto per = n != nullptr && n->value ? int_of(&*n->value) : std::optional<std::int64_t>(1);
        const auto nodes = m != nullptr && m->value ? int_of(&*m->value) : std::optional<std::int64_t>(1);
        if (per && nodes) ws = *per * *nodes;
      } else {
        const Flag* n = find_flag(cmd, "num_gpus");
        const Flag* m = find_flag(cmd, "num_nodes");
        if (n != nullptr && n->value && find_flag(cmd, "hostfile") == nullptr && find_flag(cmd, "include") == nullptr) {
          const auto per = int_of(&*n->value);
          const auto nodes = m != nullptr && m->value ? int_of(&*m->value) : std::optional<std::int64_t>(1);
          if (per && nodes) ws = *per * *nodes;
        }
      }
      if (ws) {
        Setting s;
        s.key = std::string(keys::kWorldSize);
        s.value = Value::of_int(*ws, cmd.region);
        s.path = in.script_doc->path();
        s.region = cmd.region;
        s.origin = Origin::LaunchFlag;
        s.spelled = std::string(to_string(cmd.tool));
        l.add(std::move(s));
      }
      decide(l, keys::kWorldSize, std::nullopt, "the launcher's process count is not known");
      // Without accelerate's launcher, FSDP is on only with a plugin, the Trainer's fsdp, or
      // ACCELERATE_USE_FSDP=true (accelerator.py:387-396).
      std::optional<Setting> off;
      if (in.python != nullptr)
        off = default_setting(keys::kFsdpEnabled, Value::of_bool(false),
                              SourceKind::LibraryDefault, "FSDP is off without a plugin, Trainer fsdp or ACCELERATE_USE_FSDP=true");
      decide(l, keys::kFsdpEnabled, std::move(off), "the script is not known");
      if (l.fsdp_enabled()) {
        Setting dt = *l.get(keys::kFsdpEnabled)->decided_by;
        dt.key = std::string(keys::kDistributedType);
        dt.value = Value::of_string("FSDP", dt.region);
        l.add(std::move(dt));
      } else if (const auto ws = l.world_size(); ws && l.value(keys::kFsdpEnabled).kind == ValueKind::Bool) {
        l.add(default_setting(keys::kDistributedType, Value::of_string(*ws > 1 ? "MULTI_GPU" : "NO"),
                              SourceKind::LibraryDefault, "Accelerator's state from the process count"));
      }
      decide(l, keys::kDistributedType, std::nullopt, "not known");
      if (auto it = cmd.env.find("ACCELERATE_MIXED_PRECISION"); it != cmd.env.end() && it->second.known) {
        l.add(make_setting(keys::kMixedPrecision, Value::of_string(it->second.text, it->second.region),
                           Value::of_string(it->second.text), *in.script_doc, it->second.region, Origin::Environment,
                           "ACCELERATE_MIXED_PRECISION"));
      }
      decide(l, keys::kMixedPrecision,
                          default_setting(keys::kMixedPrecision, Value::of_string("no"), SourceKind::LibraryDefault, "Accelerator default"));
      decide_all_fsdp(l, false);
      mark_unread(l);
      break;
    }
    case LaunchTool::TorchtitanRunTrain: {
      l.launcher = Launcher::Torchtitan;
      if (in.torchtitan != nullptr) collect_torchtitan(*in.torchtitan, l);
      // run_train.sh: NGPU defaults to 8 (torchtitan v0.2.2).
      Setting s;
      s.key = std::string(keys::kWorldSize);
      auto it = cmd.env.find("NGPU");
      if (it != cmd.env.end()) {
        const auto n = int_of(&it->second);
        s.value = n ? Value::of_int(*n, it->second.region) : Value::unknown(it->second.region);
        s.path = in.script_doc->path();
        s.region = it->second.region;
        s.origin = Origin::Environment;
        s.spelled = "NGPU";
      } else {
        s.value = Value::of_int(8);
        s.origin = Origin::Default;
        s.source = SourceKind::LauncherDefault;
        s.note = "run_train.sh default NGPU=8";
      }
      l.add(std::move(s));
      decide(l, keys::kWorldSize, std::nullopt);
      break;
    }
    case LaunchTool::Axolotl:
      if (in.axolotl != nullptr) collect_axolotl(*in.axolotl, l);
      break;
    case LaunchTool::LlamaFactory: {
      // llamafactory-cli starts torchrun with NPROC_PER_NODE processes on each of NNODES nodes; without an
      // explicit NPROC_PER_NODE the count is the visible GPUs, unknown here.
      auto np = cmd.env.find("NPROC_PER_NODE");
      auto nn = cmd.env.find("NNODES");
      const auto per = np != cmd.env.end() ? int_of(&np->second) : std::nullopt;
      const auto nodes = nn != cmd.env.end() ? int_of(&nn->second) : std::optional<std::int64_t>(1);
      if (per && nodes) {
        Setting s;
        s.key = std::string(keys::kWorldSize);
        s.value = Value::of_int(*per * *nodes, np->second.region);
        s.path = in.script_doc->path();
        s.region = np->second.region;
        s.origin = Origin::Environment;
        s.spelled = "NPROC_PER_NODE";
        l.add(std::move(s));
      }
      decide(l, keys::kWorldSize, std::nullopt, "NPROC_PER_NODE is not set: all visible GPUs");
      break;
    }
  }
  // Checkpointing switches of the script.
  for (std::string_view key : {keys::kGradientCheckpointing, keys::kModelGradientCheckpointing,
                               keys::kApplyActivationCheckpointing, keys::kLightningAcPolicy}) {
    if (l.get(key) == nullptr) decide(l, key, std::nullopt, "not set");
  }
  return l;
}

}  // namespace lint::model
