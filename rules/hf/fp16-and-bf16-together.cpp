// HF015: `fp16` and `bf16` both true for one Trainer (or `fp16_full_eval` and `bf16_full_eval`): TrainingArguments
// raises ValueError when it is built (transformers v5.17.0 src/transformers/training_args.py:1752-1756).
#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/trainer/trainer.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// One precision flag where it is written; `on` only when it is statically true.
struct Flag {
  bool on = false;
  std::string path;
  source::Region region;
  std::string spelled;
};

using Getter = std::function<Flag(std::string_view)>;

struct Pair {
  std::string_view half, brain;
  std::string_view raised;  // the ValueError's message and where (transformers 5.17.0), as the oracle recorded it
};

constexpr Pair kPairs[] = {
    {"fp16", "bf16",
     "\"At most one of fp16 and bf16 can be True, but not both\") when it is built (transformers 5.17.0 "
     "`src/transformers/training_args.py:1752-1753`)"},
    {"fp16_full_eval", "bf16_full_eval",
     "\"At most one of fp16 and bf16 can be True for full eval, but not both\") when it is built (transformers "
     "5.17.0 `src/transformers/training_args.py:1755-1756`)"}};

void check(const Getter& get, const std::string& origin, rule::RuleContext& ctx) {
  for (const auto& [half, brain, raised] : kPairs) {
    const Flag f = get(half);
    const Flag b = get(brain);
    if (!f.on || !b.on) continue;
    ctx.report(b.path, b.region,
               "`" + std::string(half) + "` and `" + std::string(brain) + "` are both true in " + origin +
                   ": TrainingArguments raises ValueError(" + std::string(raised) +
                   ". Keep one: `bf16` on GPUs that support it (Ampere and newer), `fp16` otherwise.",
               {{f.path, f.region, "`" + f.spelled + "` is set here."}});
  }
}

class Fp16AndBf16Together final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind == model::DocKind::PythonScript && doc.python) {
      for (const model::PyCall& c : doc.python->calls) {
        if (!model::is_training_arguments_class(c.name)) continue;
        check(
            [&doc, &c](std::string_view name) {
              Flag f;
              const model::PyArg* a = c.keyword(name);
              if (a == nullptr) return f;
              f.on = a->value.kind == model::ValueKind::Bool && a->value.boolean;
              f.path = doc.path();
              f.region = a->region;
              f.spelled = std::string(name) + "=" + a->value.display();
              return f;
            },
            c.name + "(...)", ctx);
      }
    }
    if (doc.kind == model::DocKind::LlamaFactoryConfig && doc.root_map() != nullptr) {
      // LLaMA-Factory builds Seq2SeqTrainingArguments from the config's keys.
      const parse::Node& root = *doc.root_map();
      check(
          [&doc, &root](std::string_view name) {
            Flag f;
            const parse::Entry* e = root.find_entry(name);
            if (e == nullptr || !e->value.is_scalar()) return f;
            const model::Value v = model::value_of(e->value);
            f.on = v.kind == model::ValueKind::Bool && v.boolean;
            f.path = doc.path();
            f.region = e->key.region;
            f.region.end = e->value.region.end;
            f.region.end_byte = e->value.region.end_byte;
            f.spelled = std::string(name) + ": " + e->value.display();
            return f;
          },
          "the config", ctx);
    }
  }

  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    // The command line (and bound recipe YAML) of a script that parses its arguments with HfArgumentParser /
    // TrlParser, or of `trl <trainer>`.
    const model::Document* script = model::launch_script(l);
    const bool trl_cli = l.command && l.command->subcommand.starts_with("trl ");
    if (script == nullptr && !trl_cli) return;
    bool parser = trl_cli;
    if (script != nullptr) {
      for (const model::PyCall& c : script->python->calls) {
        parser |= c.name == "HfArgumentParser" || c.name == "TrlParser";
      }
    }
    if (!parser) return;
    const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
    if (script != nullptr) check_own_dataclass(*script, flags, ctx);
    if (flags.empty()) return;
    bool yaml = false;
    for (const model::ScriptFlag& f : flags) yaml |= f.from_yaml;
    check(
        [&flags](std::string_view name) {
          Flag r;
          const model::ScriptFlag* f = model::find_script_flag(flags, name);
          if (f == nullptr) return r;
          // A bare flag is True (HfArgumentParser's booleans take nargs="?", const=True).
          if (!f->value) {
            r.on = true;
          } else if (f->value->known) {
            r.on = model::parse_truth(f->value->text) == std::optional<bool>(true);
          }
          r.path = f->path;
          r.region = f->region;
          r.spelled = f->from_yaml ? f->name + ": " + (f->value ? f->value->text : "")
                                   : "--" + f->name + (f->value ? " " + f->value->text : "");
          return r;
        },
        yaml ? "the script's arguments (recipe and command line)" : "the command line", ctx);
  }

 private:
  /// A script whose own dataclass, parsed by HfArgumentParser, has `fp16` / `bf16` fields that it hands on to a
  /// TrainingArguments class (`DPOConfig(bf16=args.bf16, fp16=args.fp16)`): each value is the command line's
  /// flag when given, else the field's default (MedicalGPT's `fp16: ... = field(default=True)` with `--bf16 True`).
  static void check_own_dataclass(const model::Document& script, const std::vector<model::ScriptFlag>& flags,
                                  rule::RuleContext& ctx) {
    const model::PythonFacts& py = *script.python;
    const std::string& text = script.source->text();
    const std::vector<const model::PyCall*> parsers = py.calls_named("HfArgumentParser");
    if (parsers.size() != 1 || parsers.front()->has_unresolved_unpacking) return;
    const model::PyArg* types = parsers.front()->keyword("dataclass_types");
    if (types == nullptr) types = parsers.front()->positional(0);
    if (types == nullptr) return;
    std::vector<std::string> classes = model::trainer::dataclass_names(model::trainer::argument_text(text, *types));
    if (classes.empty()) return;
    // Every named class must be a dataclass of this file: a class from elsewhere may define the same field.
    std::vector<const model::PyClass*> own;
    for (const std::string& name : classes) {
      const model::PyClass* found = nullptr;
      for (const model::PyClass& c : py.classes) {
        if (c.name != name) continue;
        if (found != nullptr) return;
        found = &c;
      }
      if (found == nullptr || !found->bases.empty()) return;
      own.push_back(found);
    }
    for (const model::PyCall& c : py.calls) {
      if (!model::is_training_arguments_class(c.name) || c.has_unresolved_unpacking) continue;
      check(
          [&](std::string_view name) {
            Flag r;
            const model::PyArg* a = c.keyword(name);
            if (a == nullptr) return r;
            if (a->value.kind == model::ValueKind::Bool) {
              r.on = a->value.boolean;
              r.path = script.path();
              r.region = a->region;
              r.spelled = std::string(name) + "=" + a->value.display();
              return r;
            }
            // `name=<args>.<field>`: the field of the script's own dataclass.
            const std::string value = model::trainer::argument_text(text, *a);
            const std::size_t dot = value.find('.');
            if (dot == std::string::npos || dot == 0 || value.find('.', dot + 1) != std::string::npos) return r;
            const std::string field = value.substr(dot + 1);
            const std::string receiver = value.substr(0, dot);
            if (!model::trainer::is_identifier(receiver) || !model::trainer::is_identifier(field)) return r;
            int owners = 0;
            for (const model::PyClass* k : own) {
              owners += static_cast<int>(std::count(k->fields.begin(), k->fields.end(), field));
            }
            if (owners != 1) return r;
            // A script that changes the field after parsing (`args.fp16 = not args.bf16`) decides it itself.
            for (const model::PyAttributeAssignment& as : py.attribute_assignments) {
              if (as.target == value) return r;
            }
            if (!py.calls_named("setattr").empty()) return r;
            if (const model::ScriptFlag* f = model::find_script_flag(flags, field)) {
              if (f->from_yaml) return r;
              if (!f->value) {
                r.on = true;
              } else if (f->value->known) {
                r.on = model::parse_truth(f->value->text) == std::optional<bool>(true);
              } else {
                return r;
              }
              r.path = f->path;
              r.region = f->region;
              r.spelled = "--" + f->name + (f->value ? " " + f->value->text : "") + " (`" + value + "`)";
              return r;
            }
            const std::optional<bool> d = field_default(own, field);
            if (!d) return r;
            r.on = *d;
            r.path = script.path();
            r.region = a->region;
            r.spelled = std::string(name) + "=" + value + " (the field's default, " + (*d ? "True" : "False") + ")";
            return r;
          },
          c.name + "(...) with the script's own arguments", ctx);
    }
  }

  /// The default of `field` in one of `own` (`fp16: bool = field(default=True)` or `fp16: bool = True`), when it
  /// is a truth value written out (PyClass::field_truths); nullopt otherwise, or when more than one of `own`
  /// annotates the field (or one annotates it twice).
  static std::optional<bool> field_default(const std::vector<const model::PyClass*>& own, const std::string& field) {
    std::optional<bool> found;
    int seen = 0;
    for (const model::PyClass* k : own) {
      for (std::size_t i = 0; i < k->fields.size(); ++i) {
        if (k->fields[i] != field) continue;
        if (++seen > 1) return std::nullopt;
        const std::int8_t t = i < k->field_truths.size() ? k->field_truths[i] : -1;
        if (t < 0) return std::nullopt;
        found = t == 1;
      }
    }
    return found;
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_fp16_and_bf16_together() {
  return std::make_unique<Fp16AndBf16Together>();
}

}  // namespace lint::rules
