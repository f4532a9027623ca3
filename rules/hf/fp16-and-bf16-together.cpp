// HF015: `fp16` and `bf16` both true for one Trainer (or `fp16_full_eval` and `bf16_full_eval`): TrainingArguments
// raises ValueError when it is built (transformers v5.17.0 src/transformers/training_args.py:1752-1756).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lint/model/deepspeed_facts.hpp"
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

constexpr std::pair<std::string_view, std::string_view> kPairs[] = {{"fp16", "bf16"},
                                                                    {"fp16_full_eval", "bf16_full_eval"}};

void check(const Getter& get, const std::string& origin, rule::RuleContext& ctx) {
  for (const auto& [half, brain] : kPairs) {
    const Flag f = get(half);
    const Flag b = get(brain);
    if (!f.on || !b.on) continue;
    ctx.report(b.path, b.region,
               "`" + std::string(half) + "` and `" + std::string(brain) + "` are both true in " + origin +
                   ": TrainingArguments raises ValueError(\"At most one of fp16 and bf16 can be True, but not "
                   "both\") when it is built (transformers 5.17.0 `src/transformers/training_args.py:1752-1756`). "
                   "Keep one: `bf16` on GPUs that support it (Ampere and newer), `fp16` otherwise.",
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
};

}  // namespace

std::unique_ptr<rule::Rule> make_fp16_and_bf16_together() {
  return std::make_unique<Fp16AndBf16Together>();
}

}  // namespace lint::rules
