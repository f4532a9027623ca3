#include "lint/model/trainer/trainer.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

#include "lint/model/accelerate/schema.hpp"
#include "lint/model/collect.hpp"
#include "lint/model/resolve.hpp"
#include "lint/model/trainer/schema.hpp"
#include "lint/model/versions.hpp"

namespace lint::model::trainer {

namespace {

/// The wrap classes of a transformers 4.x Trainer, whose other FSDP arguments stay unknown here. Its
/// TrainingArguments appends the deprecated top-level `fsdp_transformer_layer_cls_to_wrap` (a field of 4.x, gone
/// at 5.17: HF008) to the class list of `fsdp_config`, with a FutureWarning ("using
/// `--fsdp_transformer_layer_cls_to_wrap` is deprecated. Use fsdp_config instead": transformers 4.28
/// training_args.py:1388, as logged in lm-sys/FastChat#1240), and with `auto_wrap` among the `fsdp` words the Trainer
/// looks each class up in the model and raises when one is missing ("Could not find the transformer layer class to
/// wrap in the model.": transformers 4.27 trainer.py:1442 `_wrap_model`, as in the tracebacks of
/// tatsu-lab/stanford_alpaca#94 and #151; from 4.30 the same list goes to accelerate as FSDP_TRANSFORMER_CLS_TO_WRAP,
/// which raises the same way). Read only when the project's transformers is known to be a 4.x release.
void collect_v4_wrap_classes(const Document& doc, const PyCall& c, const std::vector<std::string>& words, Launch& l) {
  if (!target_versions().before("transformers", Version{5, 0, 0})) return;
  if (std::find(words.begin(), words.end(), "auto_wrap") == words.end()) return;
  if (const PyArg* cls = c.keyword("fsdp_transformer_layer_cls_to_wrap")) {
    Value v = cls->value.kind == ValueKind::String ? cls->value : Value::unknown(cls->region);
    v.region = cls->value.region.valid() ? cls->value.region : cls->region;
    add_call_setting(l, doc, c, *cls, keys::kTransformerLayerCls, v, Origin::TrainingArguments);
  }
  if (const PyArg* cfg = c.keyword("fsdp_config"); cfg != nullptr && cfg->value.kind == ValueKind::Dict) {
    if (const Value* cls = fsdp_config_get(cfg->value, "transformer_layer_cls_to_wrap")) {
      l.add(make_setting(keys::kTransformerLayerCls, *cls, *cls, doc, cls->region, Origin::TrainingArguments,
                         "fsdp_config.transformer_layer_cls_to_wrap"));
    }
  }
}

}  // namespace

/// TrainingArguments / TRL configs (transformers 5.17 `_process_fsdp_args`, training_args.py:2734-2896).
/// One TrainingArguments-like call (a literal call in the script, or the script's command-line arguments turned
/// into one by the binder).
void collect_call(const Document& doc, const PyCall& c, Launch& l, const Document* fsdp_config_doc) {
  // Values read from a bound fsdp_config JSON are written in that file.
  const Document& cdoc = fsdp_config_doc != nullptr ? *fsdp_config_doc : doc;
  {
    const bool trl = default_gradient_checkpointing(c.name);
    const std::string spelled_base = c.name + "(";
    if (const PyArg* gc = c.keyword("gradient_checkpointing")) {
      Value v = gc->value.kind == ValueKind::Bool ? gc->value : Value::unknown(gc->region);
      v.region = gc->region;
      add_call_setting(l, doc, c, *gc, keys::kGradientCheckpointing, v, Origin::TrainingArguments);
    } else {
      Value v = c.has_unresolved_unpacking ? Value::unknown(c.callee_region) : Value::of_bool(trl, c.callee_region);
      l.add(call_default_setting(keys::kGradientCheckpointing, v, doc, c.callee_region, Origin::TrainingArguments,
                                 c.name));
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
        if (it.kind != ValueKind::String)
          known = false;
        else
          words.push_back(it.text);
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
    // What follows is the Trainer of transformers 5.10 and later (FSDP2 by default from 5.10: axolotl v0.18.0
    // src/axolotl/utils/schemas/validation.py:1119-1121), read at 5.17. An older transformers builds its plugin
    // differently (FSDP1 by default, the `fsdp` words as sharding strategies): its plugin arguments stay unknown.
    if (const AssumedVersion& tf = target_versions().get("transformers"); !trainer_fsdp_modelled()) {
      l.add(make_setting(keys::kFsdpVersion, Value::unknown(fsdp->region), fv, doc, fsdp->region,
                         Origin::TrainingArguments,
                         spelled_base + "fsdp=) under transformers " + tf.display() + " (" + tf.origin +
                             "): the Trainer's FSDP arguments are known from transformers 5.10"));
      collect_v4_wrap_classes(doc, c, words, l);
      return;
    }
    // fsdp_config: a dict literal (keys with `fsdp_` stripped) or a path to a JSON file (bound later).
    const PyArg* cfg = c.keyword("fsdp_config");
    const Value* cfg_dict = (cfg != nullptr && cfg->value.kind == ValueKind::Dict) ? &cfg->value : nullptr;
    const bool cfg_unknown = cfg != nullptr && cfg_dict == nullptr && cfg->value.kind != ValueKind::None;
    // `fsdp_x` overwrites `x` (trainer::fsdp_config_pick).
    auto cfg_get = [&](std::string_view key) -> const Value* {
      return cfg_dict == nullptr ? nullptr : fsdp_config_get(*cfg_dict, key);
    };
    const Value* version_v = cfg_get("version");
    int version = kDefaultFsdpVersion;
    if (version_v != nullptr) {
      if (version_v->kind == ValueKind::Int)
        version = static_cast<int>(version_v->integer);
      else if (version_v->kind == ValueKind::String && (version_v->text == "1" || version_v->text == "2"))
        version = version_v->text[0] - '0';
      else
        version = 0;
    } else if (cfg_unknown) {
      version = 0;
    }
    const source::Region vr = version_v != nullptr ? version_v->region : fsdp->region;
    l.add(make_setting(keys::kFsdpVersion, version != 0 ? Value::of_int(version, vr) : Value::unknown(vr),
                       version_v != nullptr ? *version_v : Value{}, version_v != nullptr ? cdoc : doc, vr,
                       Origin::TrainingArguments,
                       version_v != nullptr ? "fsdp_config.version" : spelled_base + "fsdp=) default version"));
    if (version == 2) {
      const Value* raf = cfg_get("reshard_after_forward");
      if (raf != nullptr) {
        Value v = raf->kind == ValueKind::Bool ? *raf : Value::unknown(raf->region);
        if (raf->kind == ValueKind::String) {
          if (auto t = parse_truth(raf->text)) v = Value::of_bool(*t, raf->region);
        }
        v.region = raf->region;
        l.add(make_setting(keys::kReshardAfterForward, v, *raf, cdoc, raf->region, Origin::TrainingArguments,
                           "fsdp_config.reshard_after_forward"));
      } else if (!cfg_unknown) {
        // The first sharding word decides (setdefault, training_args.py:2876-2883); default True.
        std::optional<bool> from_words;
        for (const std::string& w : words) {
          if (w == "full_shard") from_words = from_words.value_or(true);
          if (w == "shard_grad_op") from_words = from_words.value_or(false);
        }
        l.add(make_setting(keys::kReshardAfterForward, Value::of_bool(from_words.value_or(true), fsdp->region), fv, doc,
                           fsdp->region, Origin::TrainingArguments, spelled_base + "fsdp=)"));
      }
    }
    if (version == 1) {
      // FSDP1: the Trainer passes its strategy word as reshard_after_forward; the plugin then fills
      // sharding_strategy from FSDP_SHARDING_STRATEGY or FULL_SHARD, which wins (transformers v5.17.0
      // src/transformers/training_args.py:2827-2829, accelerate utils/dataclasses.py:1836-1848; oracle p3-T4, p3-T6).
      std::string word = "full_shard";
      for (const std::string& w : words) {
        if (accelerate::parse_strategy(w)) {
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
      if (auto t = truth_of(*ac))
        v = Value::of_bool(*t, ac->region);
      else
        v = Value::unknown(ac->region);
      l.add(make_setting(keys::kActivationCheckpointing, v, *ac, cdoc, ac->region, Origin::TrainingArguments,
                         "fsdp_config.activation_checkpointing"));
    }
    // Keys the Trainer always passes to its plugin (training_args.py:2784-2841), so they beat the launcher's env.
    if (!cfg_unknown) {
      auto emit = [&](std::string_view key, std::string_view cfg_key, Value fallback, bool truth) {
        const Value* v = cfg_get(cfg_key);
        Value val = v != nullptr ? *v : fallback;
        if (v != nullptr && truth) {
          if (auto t = truth_of(*v)) val = Value::of_bool(*t, v->region);
        } else if (v != nullptr && val.kind == ValueKind::String) {
          val = accelerate::normalise_value(accelerate::fsdp_config_key(cfg_key), val);
        }
        const source::Region r = v != nullptr ? v->region : fsdp->region;
        val.region = r;
        l.add(make_setting(key, val, v != nullptr ? *v : Value{}, v != nullptr ? cdoc : doc, r,
                           Origin::TrainingArguments,
                           v != nullptr ? "fsdp_config." + std::string(cfg_key)
                                        : spelled_base + "fsdp=) default " + std::string(cfg_key)));
      };
      for (const PassedKey& k : fsdp_passed_keys()) {
        if (k.fsdp1_only && version != 1) continue;
        const std::string dv(k.default_value);
        emit(k.canonical, k.config_key,
             k.truth ? Value::of_bool(parse_truth(dv).value_or(false)) : Value::of_string(dv), k.truth);
      }
      if (const Value* off = cfg_get("cpu_offload"); off != nullptr && truth_of(*off).value_or(false)) {
        l.add(make_setting(keys::kOffloadParams, Value::of_bool(true, off->region), *off, cdoc, off->region,
                           Origin::TrainingArguments, "fsdp_config.cpu_offload"));
      }
      bool offload_word = false;
      for (const std::string& w : words) offload_word |= w == "offload";
      if (offload_word) {
        l.add(make_setting(keys::kOffloadParams, Value::of_bool(true, fsdp->region), fv, doc, fsdp->region,
                           Origin::TrainingArguments, spelled_base + "fsdp=) offload"));
      }
      const Value* policy = cfg_get("auto_wrap_policy");
      if (const Value* minp = cfg_get("min_num_params"); minp != nullptr && policy != nullptr &&
                                                         policy->kind == ValueKind::String &&
                                                         policy->text == "SIZE_BASED_WRAP") {
        l.add(make_setting(keys::kMinNumParams, *minp, *minp, cdoc, minp->region, Origin::TrainingArguments,
                           "fsdp_config.min_num_params"));
      }
      if (const Value* cls = cfg_get("transformer_layer_cls_to_wrap")) {
        l.add(make_setting(keys::kTransformerLayerCls, *cls, *cls, cdoc, cls->region, Origin::TrainingArguments,
                           "fsdp_config.transformer_layer_cls_to_wrap"));
      }
    }
    if (!cfg_unknown) {
      const Value* awp = cfg_get("auto_wrap_policy");
      l.add(make_setting(keys::kAutoWrapPolicy,
                         awp != nullptr ? *awp : Value::of_string(std::string(kDefaultAutoWrapPolicy), fsdp->region),
                         awp != nullptr ? *awp : Value{}, awp != nullptr ? cdoc : doc,
                         awp != nullptr ? awp->region : fsdp->region, Origin::TrainingArguments,
                         awp != nullptr ? "fsdp_config.auto_wrap_policy" : spelled_base + "fsdp=) default"));
    }
  }
}

void collect_arguments(const Document& doc, const PythonFacts& py, Launch& l) {
  for (const PyCall& c : py.calls) {
    if (is_arguments_class(c.name)) collect_call(doc, c, l);
  }
}

std::string argument_text(std::string_view text, const PyArg& a) {
  if (a.region.end_byte > text.size() || a.region.begin_byte >= a.region.end_byte) return {};
  std::string t(text.substr(a.region.begin_byte, a.region.end_byte - a.region.begin_byte));
  if (!a.name.empty()) t = t.substr(t.find('=') + 1);
  const auto b = t.find_first_not_of(" \t\n\r\\");
  const auto e = t.find_last_not_of(" \t\n\r\\");
  return b == std::string::npos ? std::string() : t.substr(b, e - b + 1);
}

bool is_identifier(std::string_view s) {
  return !s.empty() && (std::isalpha(static_cast<unsigned char>(s[0])) != 0 || s[0] == '_') &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) != 0 || c == '_'; });
}

std::vector<std::string> dataclass_names(std::string t) {
  if (t.size() >= 2 && ((t.front() == '(' && t.back() == ')') || (t.front() == '[' && t.back() == ']')))
    t = t.substr(1, t.size() - 2);
  std::vector<std::string> out;
  std::size_t b = 0;
  while (b <= t.size()) {
    std::size_t e = t.find(',', b);
    if (e == std::string::npos) e = t.size();
    std::string name = t.substr(b, e - b);
    const auto x = name.find_first_not_of(" \t\n\r\\");
    const auto y = name.find_last_not_of(" \t\n\r\\");
    name = x == std::string::npos ? std::string() : name.substr(x, y - x + 1);
    if (!name.empty()) {
      if (!is_identifier(name)) return {};
      out.push_back(name);
    }
    b = e + 1;
  }
  return out;
}

/// The TrainingArguments dataclass an HfArgumentParser / TrlParser in the script builds, if any. None when every
/// class given to the parser is a dataclass of the script itself without bases (`HfArgumentParser(ScriptArguments)`):
/// the command line then fills those fields, and the script builds its TrainingArguments itself (the literal call
/// collect_arguments reads). A class from elsewhere, or not known, may derive from TrainingArguments: the parser is
/// then taken to build one, TrainingArguments unless a TrainingArguments-like class is named.
std::optional<std::string> parser_config_class(const PythonFacts& py, std::string_view text) {
  for (const PyCall& c : py.calls) {
    if (c.name != "HfArgumentParser" && c.name != "TrlParser") continue;
    std::string cls = "TrainingArguments";
    const auto own_class = [&py](const std::string& name) {
      int n = 0;
      bool plain = false;
      for (const PyClass& k : py.classes) {
        if (k.name != name) continue;
        ++n;
        plain = k.bases.empty();
      }
      return n == 1 && plain;
    };
    const auto look = [&](const Value& x) {
      if (x.kind == ValueKind::Object || x.kind == ValueKind::Enum || x.kind == ValueKind::String) {
        const std::string name = x.kind == ValueKind::Enum ? x.text : x.text.substr(x.text.rfind('.') + 1);
        if (is_arguments_class(name)) cls = name;
      }
    };
    for (const PyArg& a : c.args) {
      look(a.value);
      for (const Value& it : a.value.items) look(it);
    }
    // The classes given, as written (a class of this file is no static value): each one a dataclass of the file.
    const PyArg* types = c.keyword("dataclass_types");
    if (types == nullptr) types = c.positional(0);
    if (types != nullptr && !c.has_unresolved_unpacking) {
      const std::vector<std::string> names = dataclass_names(argument_text(text, *types));
      if (!names.empty() && std::all_of(names.begin(), names.end(), own_class)) return std::nullopt;
    }
    return cls;
  }
  return std::nullopt;
}

/// Turns the script's command-line arguments into the TrainingArguments call HfArgumentParser would build.
void collect_cli(const Document& script_doc, const parse::LaunchCommand& cmd, const std::string& cls,
                 const Document* fsdp_config_doc, Launch& l) {
  PyCall call;
  call.name = cls;
  call.callee = cls;
  call.region = cmd.region;
  call.callee_region = cmd.script ? cmd.script->region : cmd.region;
  const auto args = parse::script_arguments(cmd.script_args);
  for (const parse::ScriptArg& a : args) {
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
    } else if (auto b = parse_cli_bool(a.value->text); b && a.name != "fsdp") {
      p.value = Value::of_bool(*b, a.value->region);
    } else {
      p.value = Value::of_string(a.value->text, a.value->region);
    }
    call.args.push_back(std::move(p));
  }
  collect_call(script_doc, call, l, fsdp_config_doc);
}

}  // namespace lint::model::trainer
