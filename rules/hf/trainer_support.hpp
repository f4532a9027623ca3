// Helpers shared by the Trainer rules (HF*): the TrainingArguments a launch builds, from a call in the script or
// from the command line parsed by HfArgumentParser / TrlParser.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/trainer/schema.hpp"
#include "rules/support.hpp"

namespace lint::rules::trainer {

/// One TrainingArguments (or TRL config) construction, reduced to what the FSDP rules need.
struct TrainerArgs {
  std::string path;                ///< the file it is written in
  std::string spelled;             ///< `TrainingArguments(...)`, `--fsdp`
  source::Region call_region;      ///< the call (or the launch command)
  bool has_fsdp = false;           ///< `fsdp` given
  bool fsdp_known = false;         ///< its value is statically known
  bool fsdp_on = false;            ///< truthy
  std::vector<std::string> words;  ///< string / list form
  source::Region fsdp_region;
  bool has_fsdp_config = false;  ///< `fsdp_config` given (not None)
  source::Region fsdp_config_region;
  std::optional<int> version;                  ///< the FSDP version the Trainer picks (default 2), when known
  std::optional<bool> gradient_checkpointing;  ///< explicit value, when known
  source::Region gradient_checkpointing_region;
  bool trl = false;      ///< a TRL config (gradient_checkpointing defaults to True)
  bool complete = true;  ///< no unresolved `**kwargs` / config file that could set more
};

/// TrainingArguments and its subclasses (TRL's configs): one list, model::is_training_arguments_class.
/// A number written as a whole word (`0.3`, `1e-5`), or nullopt.
inline std::optional<double> number_word(const std::string& t) {
  try {
    std::size_t used = 0;
    const double d = std::stod(t, &used);
    if (used == t.size()) return d;
  } catch (...) {
  }
  return std::nullopt;
}

inline bool is_trainer_args_name(std::string_view n) {
  return model::is_training_arguments_class(n);
}

inline bool is_trl_name(std::string_view n) {
  return n.ends_with("Config") && n != "TrainingArguments";
}

inline std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> out;
  std::string w;
  for (char c : std::string(s) + " ") {
    if (c == ' ' || c == '\t') {
      if (!w.empty()) out.push_back(w);
      w.clear();
    } else {
      w += c;
    }
  }
  return out;
}

inline void set_fsdp(TrainerArgs& t, const model::Value& v, source::Region r) {
  t.has_fsdp = true;
  t.fsdp_region = r;
  t.fsdp_known = true;
  if (v.kind == model::ValueKind::Bool) {
    t.fsdp_on = v.boolean;
  } else if (v.kind == model::ValueKind::None) {
    t.fsdp_on = false;
  } else if (v.kind == model::ValueKind::String) {
    t.words = split_words(v.text);
    t.fsdp_on = !t.words.empty();
  } else if (v.kind == model::ValueKind::List) {
    for (const model::Value& it : v.items) {
      if (it.kind != model::ValueKind::String)
        t.fsdp_known = false;
      else
        t.words.push_back(it.text);
    }
    t.fsdp_on = !v.items.empty();
  } else {
    t.fsdp_known = false;
  }
}

inline std::optional<int> version_from_dict(const model::Value& cfg) {
  std::optional<int> v = model::trainer::fsdp_version(nullptr);  // the default, when the version is known
  for (const auto& [k, val] : cfg.fields) {
    if (k != "version" && k != "fsdp_version") continue;
    if (val.kind == model::ValueKind::Int && (val.integer == 1 || val.integer == 2))
      v = static_cast<int>(val.integer);
    else if (val.kind == model::ValueKind::String && (val.text == "1" || val.text == "2"))
      v = val.text[0] - '0';
    else
      v = std::nullopt;
  }
  return v;
}

/// Every TrainingArguments the launch builds: calls in its Python script, and the command line of a script that
/// parses its arguments with HfArgumentParser / TrlParser.
inline std::vector<TrainerArgs> trainer_args(const model::Launch& l) {
  std::vector<TrainerArgs> out;
  const model::Document* py = nullptr;
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::PythonScript && d->python) py = d;
  }
  if (py == nullptr) return out;
  bool parser = false;
  for (const model::PyCall& c : py->python->calls) {
    if (c.name == "HfArgumentParser" || c.name == "TrlParser") parser = true;
    if (!is_trainer_args_name(c.name)) continue;
    TrainerArgs t;
    t.path = py->path();
    t.spelled = c.name + "(...)";
    t.call_region = c.callee_region;
    t.trl = is_trl_name(c.name);
    t.complete = !c.has_unresolved_unpacking;
    if (const model::PyArg* f = c.keyword("fsdp")) set_fsdp(t, f->value, f->region);
    if (const model::PyArg* cfg = c.keyword("fsdp_config");
        cfg != nullptr && cfg->value.kind != model::ValueKind::None) {
      t.has_fsdp_config = true;
      t.fsdp_config_region = cfg->region;
      t.version = cfg->value.kind == model::ValueKind::Dict ? version_from_dict(cfg->value) : std::nullopt;
    } else {
      t.version = model::trainer::fsdp_version(nullptr);
    }
    if (const model::PyArg* gc = c.keyword("gradient_checkpointing")) {
      if (gc->value.kind == model::ValueKind::Bool) t.gradient_checkpointing = gc->value.boolean;
      t.gradient_checkpointing_region = gc->region;
    } else if (t.complete) {
      t.gradient_checkpointing = t.trl;
      t.gradient_checkpointing_region = c.callee_region;
    }
    out.push_back(std::move(t));
  }
  // The command line: `--fsdp "full_shard auto_wrap" --fsdp_config x.json`. A `--config` YAML (TRL) or a YAML given
  // to parse_yaml_file may set more, so the command line alone is then incomplete.
  if (parser && l.command && l.command_document != nullptr) {
    const auto& args = l.command->script_args;
    TrainerArgs t;
    t.path = l.command_document->path();
    t.spelled = "the command line";
    t.call_region = l.command->region;
    t.version = model::trainer::fsdp_version(nullptr);
    bool any = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& w = args[i].text;
      if (!w.starts_with("--")) {
        if (w.ends_with(".yaml") || w.ends_with(".yml") || w.ends_with(".json")) t.complete = false;
        continue;
      }
      const auto eq = w.find('=');
      const std::string name = w.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      std::optional<parse::Word> value;
      if (eq != std::string::npos)
        value = parse::Word{w.substr(eq + 1), args[i].known, args[i].region};
      else if (i + 1 < args.size() && !args[i + 1].text.starts_with("--"))
        value = args[i + 1];
      const std::size_t flag_index = i;
      if (value && eq == std::string::npos) ++i;  // the value is not a positional argument
      source::Region r = args[flag_index].region;
      if (value && eq == std::string::npos) {
        r.end = value->region.end;
        r.end_byte = value->region.end_byte;
      }
      if (name == "config") t.complete = false;
      if (!args[flag_index].known || (value && !value->known)) {
        if (name == "fsdp" || name == "fsdp_config" || name == "gradient_checkpointing") t.complete = false;
        continue;
      }
      if (name == "fsdp") {
        any = true;
        set_fsdp(t, value ? model::Value::of_string(value->text) : model::Value::of_bool(true), r);
        if (value && (value->text == "false" || value->text == "False")) t.fsdp_on = false;
        if (value && (value->text == "true" || value->text == "True")) {
          t.words.clear();
          t.fsdp_on = true;
        }
      } else if (name == "fsdp_config") {
        any = true;
        t.has_fsdp_config = true;
        t.fsdp_config_region = r;
        t.version = std::nullopt;  // a file or a JSON string: read by HF001's binding, not here
      } else if (name == "gradient_checkpointing") {
        any = true;
        const std::string v = value ? value->text : "true";
        t.gradient_checkpointing = v == "true" || v == "True" || v == "1" || v == "yes";
        t.gradient_checkpointing_region = r;
      }
    }
    if (t.has_fsdp_config) {
      // A bound `--fsdp_config x.json`: its version decides.
      for (const model::Document* d : l.documents) {
        if (d->kind == model::DocKind::TrainerFsdpConfig && d->root_map() != nullptr)
          t.version = version_from_dict(model::value_of(*d->root_map()));
      }
    }
    if (any) out.push_back(std::move(t));
  }
  return out;
}

/// The first `<trainer>.save_model(...)` of a script that builds an HF / TRL trainer (`Trainer`, `SFTTrainer`,
/// `ORPOTrainer`), or nullptr. `accelerator.save_model(model, dir)` is not one: it gathers a full state dict itself.
inline const model::PyCall* trainer_save_model_call(const model::PythonFacts& py) {
  bool trainer = false;
  const model::PyCall* save = nullptr;
  for (const model::PyCall& c : py.calls) {
    if (c.name.ends_with("Trainer") && !c.name.starts_with("Lightning")) trainer = true;
    if (save == nullptr && c.name == "save_model" && !c.receiver.empty() &&
        c.receiver.find("accelerator") == std::string::npos)
      save = &c;
  }
  return trainer ? save : nullptr;
}

/// Whether the script's command-line flags reach the Trainer's arguments: it parses them with HfArgumentParser /
/// TrlParser, or it is LLaMA-Factory's entry script.
inline bool parses_trainer_flags(const model::PythonFacts& py) {
  return model::is_llamafactory_script(py) || std::any_of(py.calls.begin(), py.calls.end(), [](const model::PyCall& c) {
           return c.name == "HfArgumentParser" || c.name == "TrlParser";
         });
}

/// The `use_reentrant` a `gradient_checkpointing_kwargs` dict sets, when it is a literal bool.
inline std::optional<bool> use_reentrant(const model::Value& v) {
  if (v.kind != model::ValueKind::Dict) return std::nullopt;
  for (const auto& [k, val] : v.fields) {
    if (k == "use_reentrant" && val.kind == model::ValueKind::Bool) return val.boolean;
  }
  return std::nullopt;
}

/// Whether a `gradient_checkpointing_kwargs` value may set `use_reentrant`: a dict naming it (any value), or a value
/// not statically known.
inline bool names_reentrant(const model::Value& v) {
  if (v.kind != model::ValueKind::Dict) return v.kind == model::ValueKind::Unknown;
  for (const auto& [k, val] : v.fields) {
    if (k == "use_reentrant") return true;
  }
  return false;
}

/// The `use_reentrant` of `'{"use_reentrant": true}'`, a JSON dict on a command line (HfArgumentParser loads dict
/// fields from JSON), when it names one.
inline std::optional<bool> use_reentrant_json(std::string_view text) {
  const std::size_t k = text.find("\"use_reentrant\"");
  if (k == std::string_view::npos) return std::nullopt;
  std::size_t i = text.find(':', k);
  if (i == std::string_view::npos) return std::nullopt;
  ++i;
  while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  const std::string_view rest = text.substr(i);
  if (rest.starts_with("true") || rest.starts_with("True")) return true;
  if (rest.starts_with("false") || rest.starts_with("False")) return false;
  return std::nullopt;
}

/// Whether a script trains a PEFT model (imports peft, calls `get_peft_model`, passes `peft_config=`).
inline bool uses_peft(const model::PythonFacts& py) {
  for (const auto& [local, qualified] : py.imports) {
    if (qualified == "peft" || qualified.starts_with("peft.")) return true;
  }
  for (const model::PyCall& c : py.calls) {
    if (c.name == "get_peft_model" || c.keyword("peft_config") != nullptr) return true;
  }
  return false;
}

}  // namespace lint::rules::trainer
