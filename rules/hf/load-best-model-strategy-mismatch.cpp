// HF011: `load_best_model_at_end=True` with evaluation and save strategies that differ, or with `save_steps` not a
// round multiple of `eval_steps` when both run per step: TrainingArguments.__post_init__ raises ValueError, so the
// script stops when it builds its arguments (transformers v5.17.0 src/transformers/training_args.py:1716-1741).
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "lint/model/deepspeed_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// One argument as the rule needs it: present or not, statically known or not, and where.
struct Arg {
  bool present = false;
  bool known = false;
  std::string text;              ///< lowercased string / enum member (`epoch`), or the number as written
  std::optional<double> number;  ///< when it is a number
  std::optional<bool> truth;
  std::string path;
  source::Region region;
  std::string spelled;
};

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Arg from_text(const std::string& text, bool known) {
  Arg a;
  a.present = true;
  a.known = known;
  a.text = lower(text);
  a.truth = model::parse_truth(text);
  try {
    std::size_t used = 0;
    const double d = std::stod(text, &used);
    if (used == text.size()) a.number = d;
  } catch (...) {  // NOLINT(bugprone-empty-catch): not a number
  }
  return a;
}

Arg from_value(const model::Value& v) {
  Arg a;
  a.present = true;
  a.known = true;
  switch (v.kind) {
    case model::ValueKind::Bool:
      a.truth = v.boolean;
      a.text = v.boolean ? "true" : "false";
      break;
    case model::ValueKind::Int:
      a.number = static_cast<double>(v.integer);
      a.text = std::to_string(v.integer);
      break;
    case model::ValueKind::Float:
      a.number = v.number;
      a.text = v.display();
      break;
    case model::ValueKind::String:
      return from_text(v.text, true);
    case model::ValueKind::Enum:
      a.text = lower(v.text);  // IntervalStrategy.EPOCH -> epoch
      break;
    case model::ValueKind::None:
      a.text = "none";
      break;
    default:
      a.known = false;
  }
  return a;
}

/// Where the arguments come from: `get(name)` answers one argument; `defaults` says whether an argument that is not
/// given takes TrainingArguments' own default (a plain TrainingArguments, not a subclass that may change it).
struct Source {
  std::function<Arg(std::string_view)> get;
  bool defaults = false;
  double logging_steps = 500;  ///< the default logging_steps (eval_steps' default): 10 in TRL's configs
  std::string origin;          ///< for the message: `TrainingArguments(...)`, `the command line`
};

/// The effective strategy: the argument, its old name (`evaluation_strategy`, which HF008 reports at transformers 5),
/// or the default; nullopt when not known.
std::optional<std::string> strategy(const Source& s, std::string_view name, std::string_view old_name,
                                    std::string_view dflt, Arg& site) {
  site = s.get(name);
  if (!site.present && !old_name.empty()) site = s.get(old_name);
  if (!site.present) {
    if (!s.defaults) return std::nullopt;
    return std::string(dflt);
  }
  if (!site.known || site.text.empty()) return std::nullopt;
  return site.text;
}

void check(const Source& s, rule::RuleContext& ctx) {
  const Arg best = s.get("load_best_model_at_end");
  if (!best.present || !best.known || best.truth != std::optional<bool>(true)) return;
  Arg eval_site;
  Arg save_site;
  const auto eval = strategy(s, "eval_strategy", "evaluation_strategy", "no", eval_site);
  const auto save = strategy(s, "save_strategy", "", "steps", save_site);
  if (!eval || !save || *save == "best") return;  // `save_strategy="best"` saves on evaluation
  for (const std::string* v : {&*eval, &*save}) {
    if (*v != "no" && *v != "steps" && *v != "epoch") return;  // not a strategy transformers knows: another error
  }
  std::vector<rule::RelatedLocation> related;
  auto relate = [&](const Arg& a, const std::string& what) {
    if (a.present && !a.path.empty()) related.push_back({a.path, a.region, what});
  };
  auto shown = [](const Arg& a, const std::string& v, std::string_view name) {
    return a.present ? "`" + a.spelled + "`" : "the default `" + v + "` (`" + std::string(name) + "` not set)";
  };
  if (*eval != *save) {
    relate(eval_site, "The evaluation strategy.");
    relate(save_site, "The save strategy.");
    ctx.report(best.path, best.region,
               "`load_best_model_at_end` needs the evaluation and save strategies to match, but " + s.origin +
                   " evaluates with " + shown(eval_site, *eval, "eval_strategy") + " and saves with " +
                   shown(save_site, *save, "save_strategy") +
                   ": TrainingArguments raises ValueError(\"--load_best_model_at_end requires the save and eval "
                   "strategy to match ...\") when it is built. Set both to the same strategy (or "
                   "`save_strategy=\"best\"`).",
               std::move(related));
    return;
  }
  if (*eval != "steps") return;
  // Both per step: save_steps must be a round multiple of eval_steps (eval_steps defaults to logging_steps).
  const Arg save_steps = s.get("save_steps");
  Arg eval_steps = s.get("eval_steps");
  if (!eval_steps.present || eval_steps.text == "none") eval_steps = s.get("logging_steps");
  auto steps = [&](const Arg& a) -> std::optional<double> {
    if (a.present) return a.known ? a.number : std::nullopt;
    return s.defaults ? std::optional<double>(500) : std::nullopt;
  };
  const auto sv = steps(save_steps);
  auto ev = steps(eval_steps);
  if (!eval_steps.present && s.defaults) ev = s.logging_steps;
  // Ratios (values below 1) follow another check; integers only here.
  if (!sv || !ev || *sv < 1 || *ev < 1 || std::floor(*sv) != *sv || std::floor(*ev) != *ev) return;
  const auto si = static_cast<long long>(*sv);
  const auto ei = static_cast<long long>(*ev);
  if (si % ei == 0) return;
  relate(save_steps, "save_steps.");
  relate(eval_steps, eval_steps.spelled.find("logging") != std::string::npos
                         ? "eval_steps is not set: it defaults to logging_steps."
                         : "eval_steps.");
  ctx.report(best.path, best.region,
             "`load_best_model_at_end` with evaluation and saving per step needs `save_steps` (" + std::to_string(si) +
                 ") to be a round multiple of `eval_steps` (" + std::to_string(ei) +
                 "): TrainingArguments raises ValueError(\"--load_best_model_at_end requires the saving steps to be "
                 "a round multiple of the evaluation steps ...\") when it is built.",
             std::move(related));
}

bool plain_arguments_class(std::string_view name) {
  return name == "TrainingArguments" || name == "Seq2SeqTrainingArguments";
}

/// TRL's own configs (all derive from trl/trainer/base_config.py's _BaseConfig at TRL 1.10).
bool trl_config_class(std::string_view name) {
  return name == "SFTConfig" || name == "DPOConfig" || name == "GRPOConfig" || name == "KTOConfig" ||
         name == "RewardConfig" || name == "RLOOConfig";
}

class LoadBestModelStrategyMismatch final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind == model::DocKind::PythonScript && doc.python) {
      for (const model::PyCall& c : doc.python->calls) {
        if (!model::is_training_arguments_class(c.name)) continue;
        Source s;
        s.origin = c.name + "(...)";
        // Defaults only for plain TrainingArguments without `**kwargs` that could set more.
        // TRL's configs keep TrainingArguments' strategy and save defaults and log every 10 steps
        // (trl/trainer/base_config.py at TRL 1.10).
        s.defaults = (plain_arguments_class(c.name) || trl_config_class(c.name)) && !c.has_unresolved_unpacking;
        if (trl_config_class(c.name)) s.logging_steps = 10;
        const bool unpacked = c.has_unresolved_unpacking;
        s.get = [&doc, &c, unpacked](std::string_view name) {
          const model::PyArg* a = c.keyword(name);
          if (a == nullptr) {
            Arg none;
            // A `**kwargs` may carry it: present but unknown.
            if (unpacked) none.present = true;
            return none;
          }
          Arg r = from_value(a->value);
          r.path = doc.path();
          r.region = a->region;
          r.spelled = std::string(name) + "=" + a->value.display();
          return r;
        };
        check(s, ctx);
      }
    }
    if (doc.kind == model::DocKind::LlamaFactoryConfig && doc.root_map() != nullptr) {
      // LLaMA-Factory builds Seq2SeqTrainingArguments from the config's keys (TrainingArguments' defaults).
      const parse::Node& root = *doc.root_map();
      Source s;
      s.origin = "the config";
      s.defaults = true;
      s.get = [&doc, &root](std::string_view name) {
        const parse::Entry* e = root.find_entry(name);
        if (e == nullptr) return Arg{};
        if (!e->value.is_scalar()) {
          Arg a;
          a.present = true;
          return a;
        }
        Arg a = from_value(model::value_of(e->value));
        a.path = doc.path();
        a.region = e->key.region;
        a.region.end = e->value.region.end;
        a.region.end_byte = e->value.region.end_byte;
        a.spelled = std::string(name) + ": " + e->value.display();
        return a;
      };
      check(s, ctx);
    }
  }

  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    // The arguments of a script that builds them with HfArgumentParser / TrlParser: the command line and a bound
    // recipe YAML.
    const model::Document* script = model::launch_script(l);
    // `trl sft|dpo|...`: TRL's own script parses (ScriptArguments, <Trainer>Config, ModelConfig).
    const bool trl_cli = l.command && l.command->subcommand.starts_with("trl ");
    if (script == nullptr && !trl_cli) return;
    static const model::PythonFacts kNoFacts;
    const model::PythonFacts& py = script != nullptr ? *script->python : kNoFacts;
    bool parser = trl_cli;
    bool plain = false;
    bool trl = trl_cli;
    for (const model::PyCall& c : py.calls) {
      if (c.name != "HfArgumentParser" && c.name != "TrlParser") continue;
      parser = true;
      for (const model::PyArg& a : c.args) {
        auto mentions = [](const model::Value& x) {
          const std::string n = x.text.substr(x.text.rfind('.') == std::string::npos ? 0 : x.text.rfind('.') + 1);
          return plain_arguments_class(n);
        };
        if (mentions(a.value) || std::any_of(a.value.items.begin(), a.value.items.end(), mentions)) plain = true;
        auto mentions_trl = [](const model::Value& x) {
          return trl_config_class(x.text.substr(x.text.rfind('.') == std::string::npos ? 0 : x.text.rfind('.') + 1));
        };
        if (mentions_trl(a.value) || std::any_of(a.value.items.begin(), a.value.items.end(), mentions_trl)) trl = true;
      }
    }
    if (!parser) return;
    // A literal TrainingArguments call in the script is checked on its own; a file of arguments that is not bound
    // (parse_json_file, `--config` not found) may set more.
    for (const model::PyCall& c : py.calls) {
      if (model::is_training_arguments_class(c.name)) return;
    }
    const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
    if (flags.empty()) return;
    bool yaml = false;
    bool config_flag = false;
    for (const model::ScriptFlag& f : flags) {
      yaml |= f.from_yaml;
      config_flag |= !f.from_yaml && f.name == "config";
    }
    const bool file_args = !py.calls_named("parse_json_file").empty() || !py.calls_named("parse_dict").empty() ||
                           (!yaml && (config_flag || !py.calls_named("parse_yaml_file").empty()));
    if (file_args) return;
    Source s;
    s.origin = yaml ? "the script's arguments (recipe and command line)" : "the command line";
    s.defaults = plain || trl;
    if (trl && !plain) s.logging_steps = 10;
    s.get = [&flags](std::string_view name) {
      const model::ScriptFlag* f = model::find_script_flag(flags, name);
      if (f == nullptr) return Arg{};
      // A bare flag is True (HfArgumentParser's booleans take nargs="?", const=True).
      Arg a = f->value ? from_text(f->value->text, f->value->known) : from_text("true", true);
      a.path = f->path;
      a.region = f->region;
      a.spelled = f->from_yaml ? f->name + ": " + (f->value ? f->value->text : "")
                               : "--" + f->name + (f->value ? " " + f->value->text : "");
      return a;
    };
    check(s, ctx);
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_load_best_model_strategy_mismatch() {
  return std::make_unique<LoadBestModelStrategyMismatch>();
}

}  // namespace lint::rules
