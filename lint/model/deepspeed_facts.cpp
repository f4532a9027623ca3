#include "lint/model/deepspeed_facts.hpp"

#include <algorithm>
#include <array>

#include "lint/model/resolve.hpp"

namespace lint::model {

std::string_view to_string(DeepSpeedReader r) {
  switch (r) {
    case DeepSpeedReader::Unknown:
      return "unknown";
    case DeepSpeedReader::Integration:
      return "the HF Trainer / accelerate integration";
    case DeepSpeedReader::Raw:
      return "deepspeed.initialize";
    case DeepSpeedReader::Lightning:
      return "Lightning's DeepSpeedStrategy";
  }
  return "unknown";
}

bool is_training_arguments_class(std::string_view name) {
  // Asked for every call of a script by several rules: most names end in neither suffix.
  if (!name.ends_with("Arguments") && !name.ends_with("Config")) return false;
  if (name == "TrainingArguments" || name == "Seq2SeqTrainingArguments") return true;
  // TRL's configs are TrainingArguments subclasses (SFTConfig, DPOConfig, GRPOConfig, ...).
  static constexpr std::array<std::string_view, 15> kTrl = {
      "SFTConfig",       "DPOConfig", "GRPOConfig", "KTOConfig", "ORPOConfig",
      "CPOConfig",       "PPOConfig", "RLOOConfig", "BCOConfig", "RewardConfig",
      "OnlineDPOConfig", "GKDConfig", "PRMConfig",  "XPOConfig", "NashMDConfig"};
  return std::find(kTrl.begin(), kTrl.end(), name) != kTrl.end();
}

const Document* launch_script(const Launch& l) {
  for (const Document* d : l.documents) {
    if (d->kind == DocKind::PythonScript && d->python) return d;
  }
  return nullptr;
}

namespace {

std::vector<ScriptFlag> read_script_flags(const Launch& l) {
  std::vector<ScriptFlag> out;
  // TrlParser.parse_args_and_config sets the YAML's keys as the parser's defaults and parses the command line over
  // them (trl/scripts/utils.py); HfArgumentParser.parse_yaml_file reads the YAML alone.
  for (const Document* d : l.documents) {
    if (d->kind != DocKind::TrainerArgsConfig || d->root_map() == nullptr) continue;
    for (const parse::Entry& e : d->root_map()->entries) {
      if (!e.value.is_scalar() || e.value.kind == parse::NodeKind::Null) continue;
      ScriptFlag f;
      f.name = e.key.text;
      const std::string text =
          e.value.kind == parse::NodeKind::Bool ? (e.value.boolean ? "true" : "false") : e.value.text;
      f.value = parse::Word{text, true, e.value.region};
      f.region = e.key.region;
      f.region.end = e.value.region.end;
      f.region.end_byte = e.value.region.end_byte;
      f.path = d->path();
      f.from_yaml = true;
      out.push_back(std::move(f));
    }
  }
  if (l.command) {
    for (ScriptFlag& f : script_flags(l.command->script_args)) {
      if (l.command_document != nullptr) f.path = l.command_document->path();
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace

const std::vector<ScriptFlag>& script_flags(const Launch& l) {
  return l.derived<std::vector<ScriptFlag>>(Derived::ScriptFlags, read_script_flags);
}

std::vector<ScriptFlag> script_flags(const std::vector<parse::Word>& args) {
  std::vector<ScriptFlag> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& t = args[i].text;
    if (!t.starts_with("--") || t.size() == 2) continue;
    ScriptFlag f;
    const auto eq = t.find('=');
    f.name = t.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    std::replace(f.name.begin(), f.name.end(), '-', '_');
    f.region = args[i].region;
    if (eq != std::string::npos) {
      f.value = parse::Word{t.substr(eq + 1), args[i].known, args[i].region};
    } else if (i + 1 < args.size() && !args[i + 1].text.starts_with("--")) {
      f.value = args[i + 1];
      f.region.end = args[i + 1].region.end;
      f.region.end_byte = args[i + 1].region.end_byte;
      ++i;
    }
    out.push_back(std::move(f));
  }
  return out;
}

const ScriptFlag* find_script_flag(const std::vector<ScriptFlag>& flags, std::string_view name) {
  const ScriptFlag* found = nullptr;
  for (const ScriptFlag& f : flags) {
    if (f.name == name) found = &f;
  }
  return found;
}

std::optional<std::int64_t> json_zero_stage(const parse::Node& root, const parse::Node** where) {
  const parse::Node* zo = root.find("zero_optimization");
  if (zo == nullptr) return 0;
  if (zo->kind == parse::NodeKind::Bool) {
    // The deprecated boolean form: true is stage 1 (zero/config.py read_zero_config_deprecated).
    if (where != nullptr) *where = zo;
    return zo->boolean ? 1 : 0;
  }
  if (!zo->is_map()) return std::nullopt;
  const parse::Node* st = zo->find("stage");
  if (st == nullptr) return 0;
  if (where != nullptr) *where = st;
  if (st->kind == parse::NodeKind::Int) return st->integer;
  return std::nullopt;
}

std::optional<bool> json_offload(const parse::Node& root) {
  const parse::Node* zo = root.find("zero_optimization");
  if (zo == nullptr || !zo->is_map()) return false;
  bool any = false;
  for (const char* key : {"offload_optimizer", "offload_param"}) {
    const parse::Node* o = zo->find(key);
    if (o == nullptr || o->kind == parse::NodeKind::Null) continue;
    if (!o->is_map()) return std::nullopt;
    const parse::Node* dev = o->find("device");
    if (dev == nullptr) continue;  // pydantic default "none"
    if (dev->kind != parse::NodeKind::String || dev->text == "auto") return std::nullopt;
    if (dev->text == "cpu" || dev->text == "nvme") any = true;
  }
  return any;
}

namespace {

Site site_of(const Document& d, const source::Region& r, std::string what) {
  return Site{d.path(), r, std::move(what)};
}

bool is_trainer_class(const PyCall& c) {
  if (c.name == "Trainer" || c.name == "Seq2SeqTrainer") return true;
  // TRL trainers (SFTTrainer, DPOTrainer, ...) build their own TrainingArguments subclass.
  return c.name.size() > 7 && c.name.ends_with("Trainer") && c.callee.starts_with("trl");
}

/// Stage and offload of a Lightning strategy name (`deepspeed_stage_3_offload`), registry of
/// lightning/pytorch/strategies/deepspeed.py `register_strategies`.
void lightning_strategy_name(std::string_view s, DeepSpeedState& st, const Site& where) {
  if (!s.starts_with("deepspeed")) return;
  st.on = true;
  st.turned_on = where;
  st.reader = DeepSpeedReader::Lightning;
  std::int64_t stage = 2;  // "deepspeed" alone: DeepSpeedStrategy() defaults to stage 2
  if (s.starts_with("deepspeed_stage_1")) stage = 1;
  if (s.starts_with("deepspeed_stage_2")) stage = 2;
  if (s.starts_with("deepspeed_stage_3")) stage = 3;
  st.zero_stage = stage;
  st.stage_site = where;
  st.offload = s.find("offload") != std::string_view::npos;
}

}  // namespace

bool is_llamafactory_script(const PythonFacts& py) {
  for (const auto& [local, qualified] : py.imports) {
    if (qualified.starts_with("llamafactory") || qualified.starts_with("llmtuner")) return true;
  }
  return false;
}

namespace {

DeepSpeedState read_deepspeed_state(const Launch& l) {
  DeepSpeedState st;
  bool integration = false;
  bool raw = false;
  bool lightning = false;
  const Document* accelerate = nullptr;
  for (const Document* d : l.documents) {
    switch (d->kind) {
      case DocKind::DeepSpeedConfig:
        st.config = d;
        break;
      case DocKind::AccelerateConfig:
        accelerate = d;
        break;
      case DocKind::AxolotlConfig:
      case DocKind::LlamaFactoryConfig: {
        integration = true;
        const parse::Node* root = d->root_map();
        if (root == nullptr) break;
        if (const parse::Entry* e = root->find_entry("deepspeed");
            e != nullptr && e->value.kind == parse::NodeKind::String && !e->value.text.empty()) {
          st.on = true;
          st.turned_on = site_of(*d, e->value.region, "deepspeed: " + e->value.text);
        }
        break;
      }
      default:
        break;
    }
  }

  // The script: who reads the JSON, and the doors it opens itself.
  const Document* script = launch_script(l);
  if (script != nullptr) {
    const PythonFacts& py = *script->python;
    if (is_llamafactory_script(py)) integration = true;
    for (const PyCall& c : py.calls) {
      // Asked by a dozen rules for every launch, over every call of the script: the names below all end in one of
      // these letters (Trainer, Parser, Accelerator; initialize; DeepSpeedStrategy; Fabric; ...Arguments;
      // ...Config), most calls' names in none.
      if (c.name.empty()) continue;
      if (const char last = c.name.back();
          last != 'r' && last != 'e' && last != 'y' && last != 'c' && last != 's' && last != 'g')
        continue;
      if (is_training_arguments_class(c.name) || is_trainer_class(c) || c.name == "HfArgumentParser" ||
          c.name == "TrlParser" || c.name == "Accelerator") {
        integration = true;
      }
      if (c.name == "initialize" && c.callee.starts_with("deepspeed")) raw = true;
      if (c.name == "DeepSpeedStrategy") {
        lightning = true;
        st.on = true;
        st.turned_on = site_of(*script, c.callee_region, "DeepSpeedStrategy(...)");
        std::int64_t stage = 2;  // DeepSpeedStrategy(stage=2) default
        Site where = site_of(*script, c.callee_region, "DeepSpeedStrategy default stage=2");
        if (const PyArg* a = c.keyword("stage")) {
          if (a->value.kind == ValueKind::Int) {
            stage = a->value.integer;
            where = site_of(*script, a->region, "stage=" + a->value.display());
          } else {
            stage = -1;
          }
        }
        if (stage >= 0) {
          st.zero_stage = stage;
          st.stage_site = where;
        }
        bool off = false;
        bool off_known = true;
        for (const char* k : {"offload_optimizer", "offload_parameters"}) {
          if (const PyArg* a = c.keyword(k)) {
            if (a->value.kind == ValueKind::Bool)
              off = off || a->value.boolean;
            else
              off_known = false;
          }
        }
        if (off_known) st.offload = off;
      }
      const bool lightning_trainer = (c.name == "Trainer" || c.name == "Fabric") &&
                                     (c.callee.starts_with("lightning") || c.callee.starts_with("pytorch_lightning"));
      if (lightning_trainer) {
        if (const PyArg* a = c.keyword("strategy"); a != nullptr && a->value.kind == ValueKind::String) {
          lightning_strategy_name(a->value.text, st, site_of(*script, a->region, "strategy=" + a->value.display()));
          if (a->value.text.starts_with("deepspeed")) lightning = true;
        }
      }
      if (is_training_arguments_class(c.name)) {
        const PyArg* a = c.keyword("deepspeed");
        if (a == nullptr) continue;
        const Value& v = a->value;
        if (v.kind == ValueKind::None || (v.kind == ValueKind::Bool && !v.boolean) ||
            (v.kind == ValueKind::String && v.text.empty()))
          continue;
        if (v.kind == ValueKind::Unknown) continue;  // maybe None at run time
        st.on = true;
        st.turned_on = site_of(*script, a->region, "deepspeed=" + v.display());
        if (v.kind == ValueKind::Dict) {
          if (const Value* zo = v.field("zero_optimization"); zo != nullptr && zo->kind == ValueKind::Dict) {
            if (const Value* s = zo->field("stage"); s != nullptr && s->kind == ValueKind::Int) {
              st.zero_stage = s->integer;
              st.stage_site = site_of(*script, s->region, "\"stage\": " + s->display());
            }
          }
        }
      }
    }
  }
  // `--deepspeed ds.json` given to a Trainer script.
  if (l.command_document != nullptr) {
    const auto& flags = script_flags(l);
    if (const ScriptFlag* f = find_script_flag(flags, "deepspeed");
        f != nullptr && f->value && !f->value->text.empty()) {
      st.on = true;
      st.turned_on = Site{l.command_document->path(), f->region, "--deepspeed " + f->value->text};
    }
  }

  // accelerate: distributed_type DEEPSPEED, stage from the config section (accelerate's default is 2).
  const Value& dt = l.value(keys::kDistributedType);
  if (dt.kind == ValueKind::String && dt.text == "DEEPSPEED") {
    integration = true;
    st.on = true;
    if (const Effective* e = l.get(keys::kDistributedType);
        e != nullptr && e->decided_by != nullptr && !e->decided_by->path.empty())
      st.turned_on = Site{e->decided_by->path, e->decided_by->region, "distributed_type: DEEPSPEED"};
    if (accelerate != nullptr && accelerate->root_map() != nullptr) {
      const parse::Node* section = accelerate->root_map()->find("deepspeed_config");
      const bool has_file =
          section != nullptr && section->is_map() && section->find("deepspeed_config_file") != nullptr;
      if (section != nullptr && section->is_map() && !has_file) {
        if (const parse::Entry* zs = section->find_entry("zero_stage")) {
          if (zs->value.kind == parse::NodeKind::Int) {
            st.zero_stage = zs->value.integer;
            st.stage_site = site_of(*accelerate, zs->value.region, "zero_stage: " + zs->value.text);
          }
        } else {
          st.zero_stage = 2;  // DeepSpeedPlugin default (ACCELERATE_DEEPSPEED_ZERO_STAGE, default 2)
          st.stage_site = site_of(*accelerate, section->region, "accelerate's default zero_stage 2");
        }
        bool off = false;
        bool known = true;
        for (const char* k : {"offload_optimizer_device", "offload_param_device"}) {
          if (const parse::Node* o = section->find(k)) {
            if (o->kind == parse::NodeKind::String)
              off = off || o->text == "cpu" || o->text == "nvme";
            else
              known = false;
          }
        }
        if (known) st.offload = off;
      }
    }
  }

  if (lightning)
    st.reader = DeepSpeedReader::Lightning;
  else if (integration)
    st.reader = DeepSpeedReader::Integration;
  else if (raw)
    st.reader = DeepSpeedReader::Raw;

  // The JSON decides the stage when it says one.
  if (st.config != nullptr && st.config->root_map() != nullptr) {
    const parse::Node& root = *st.config->root_map();
    if (!l.per_file) {
      st.on = true;
      if (!st.turned_on) st.turned_on = site_of(*st.config, root.region, st.config->path());
    }
    const parse::Node* where = nullptr;
    if (auto s = json_zero_stage(root, &where)) {
      st.zero_stage = *s;
      st.stage_site = where != nullptr ? site_of(*st.config, where->region, "\"stage\": " + where->text)
                                       : site_of(*st.config, root.region, "no zero_optimization stage (stage 0)");
    } else if (where != nullptr && where->kind == parse::NodeKind::String && where->text == "auto" &&
               st.reader == DeepSpeedReader::Integration && !st.zero_stage) {
      // accelerate fills "auto" from ACCELERATE_DEEPSPEED_ZERO_STAGE, default 2.
      st.zero_stage = 2;
      st.stage_site = site_of(*st.config, where->region, "\"stage\": \"auto\" (accelerate fills 2)");
    } else if (where != nullptr && where->kind == parse::NodeKind::String && where->text == "auto" &&
               st.reader == DeepSpeedReader::Raw) {
      // Plain DeepSpeed drops "auto" inside its sections: the default stage 0 (config_utils.py:55-56).
      st.zero_stage = 0;
      st.stage_site = site_of(*st.config, where->region, "\"stage\": \"auto\" (dropped: stage 0)");
    } else {
      st.zero_stage.reset();
      st.stage_site.reset();
    }
    st.offload = json_offload(root);
  }
  return st;
}

}  // namespace

const DeepSpeedState& deepspeed_state(const Launch& l) {
  return l.derived<DeepSpeedState>(Derived::DeepSpeedState, read_deepspeed_state);
}

}  // namespace lint::model
