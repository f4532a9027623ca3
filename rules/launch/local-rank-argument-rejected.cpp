// LCH007: the launcher appends a local-rank option to the script's command line (`deepspeed`: `--local_rank=N`
// unless --no_local_rank, DeepSpeed deepspeed/launcher/launch.py:260-262; `python -m torch.distributed.launch`:
// `--local-rank=N` unless --use-env, torch torch/distributed/run.py `config_from_args`), and the script parses its
// arguments with argparse's parse_args() without defining that option: argparse exits with "unrecognized arguments".
// Also for HfArgumentParser over the script's own dataclasses, none with a `local_rank` field:
// parse_args_into_dataclasses() raises "Some specified arguments are not used by the HfArgumentParser".
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

#include "lint/model/trainer/trainer.hpp"
#include "rules/launch/argparse_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// The option the launcher of `c` appends, or empty when it appends none (or that is not known).
std::string appended_option(const parse::LaunchCommand& c, const model::Document* command_doc) {
  if (c.module || !c.script) return {};
  if (c.tool == parse::LaunchTool::DeepSpeed) {
    if (parse::find_flag(c, "no_local_rank") != nullptr) return {};
    return "--local_rank";
  }
  if (c.tool != parse::LaunchTool::Torchrun || command_doc == nullptr) return {};
  // torchrun and `python -m torch.distributed.run` set LOCAL_RANK only; the retired `torch.distributed.launch`
  // passes the option unless --use-env (torch/distributed/launch.py adds `--use-env`, default False).
  const std::string& text = command_doc->source->text();
  const auto b = c.region.begin_byte, e = std::min(c.region.end_byte, text.size());
  if (b >= e || text.substr(b, e - b).find("torch.distributed.launch") == std::string::npos) return {};
  if (parse::find_flag(c, "use_env") != nullptr) return {};
  return "--local-rank";
}

/// The dataclass `name` defined in `py`, with the fields of its bases, when every base is a dataclass of the same
/// file too; nullopt otherwise (a base from elsewhere, such as TrainingArguments, may define anything).
std::optional<std::vector<std::string>> own_dataclass_fields(const model::PythonFacts& py, const std::string& name,
                                                             int depth = 0) {
  if (depth > 8) return std::nullopt;
  const model::PyClass* found = nullptr;
  for (const model::PyClass& c : py.classes) {
    if (c.name != name) continue;
    if (found != nullptr) return std::nullopt;  // defined twice: which one is used is not known
    found = &c;
  }
  if (found == nullptr) return std::nullopt;
  const bool dataclass = std::any_of(found->decorators.begin(), found->decorators.end(), [](const std::string& d) {
    return d == "dataclasses.dataclass" || d == "dataclass";
  });
  if (!dataclass) return std::nullopt;
  std::vector<std::string> fields = found->fields;
  for (const std::string& base : found->bases) {
    if (base == "object") continue;
    std::optional<std::vector<std::string>> inherited = own_dataclass_fields(py, base, depth + 1);
    if (!inherited) return std::nullopt;
    fields.insert(fields.end(), inherited->begin(), inherited->end());
  }
  return fields;
}

/// The class names of `HfArgumentParser(X)` / `HfArgumentParser((X, Y))` / `[X, Y]`, as written; empty when the
/// argument is anything else.
std::vector<std::string> parser_classes(const std::string& text, const model::PyArg& a) {
  return model::trainer::dataclass_names(model::trainer::argument_text(text, a));
}

class LocalRankArgumentRejected final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command_document == nullptr) return;
    const std::string option = appended_option(*l.command, l.command_document);
    if (option.empty()) return;
    const model::Document* script = nullptr;
    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      if (script != nullptr) return;  // several Python files: which one parses the command line is not known
      script = d;
    }
    if (script == nullptr) return;
    const model::PythonFacts& py = *script->python;
    // HfArgumentParser reads the command line only through parse_args_into_dataclasses(); a script that reads its
    // argparse arguments with parse_args() and gives HfArgumentParser a JSON or YAML file (parse_json_file) is an
    // argparse script.
    if (!py.calls_named("parse_args_into_dataclasses").empty()) {
      check_hf_parser(l, *script, option, ctx);
      return;
    }

    // Exactly one argparse parser, built here, read with parse_args() of the real command line. The launcher puts
    // the option right after the script, before the script's own arguments (DeepSpeed 38327e07f
    // deepspeed/launcher/launch.py:243-247; torch's `config_from_args` likewise), so an option with
    // nargs=argparse.REMAINDER among those arguments cannot take it.
    // A script that builds no parser itself may call a function of a project module that does (BasicSR's
    // `parse_options()` in `basicsr/utils/options.py`): that function's parse_args() reads the same command line.
    const model::Document* parser_doc = script;
    std::optional<launch::ArgparseParser> parser = launch::read_argparse(*script);
    if (!parser) parser = launch::imported_argparse(l, *script, &parser_doc);
    if (!parser) return;
    const std::vector<std::string>& options = parser->options;
    if (launch::accepted(options, option, parser->allow_abbrev)) return;

    const parse::LaunchCommand& c = *l.command;
    const bool ds = c.tool == parse::LaunchTool::DeepSpeed;
    // The same name with `_` and `-` swapped (after the leading `--`): argparse does not treat them as one.
    std::string swapped = option;
    for (std::size_t i = 2; i < swapped.size(); ++i) {
      if (swapped[i] == '_')
        swapped[i] = '-';
      else if (swapped[i] == '-')
        swapped[i] = '_';
    }
    const bool other_spelling = std::find(options.begin(), options.end(), swapped) != options.end();
    std::string message =
        std::string(ds ? "The `deepspeed` launcher" : "`torch.distributed.launch`") + " appends `" + option +
        "=<rank>` to the script's arguments, and `" + std::string(script->path()) +
        (parser_doc != script ? "` parses them with argparse (in `" + parser_doc->path() + "`, the module it calls)"
                              : std::string("` parses them with argparse")) +
        " without defining `" + option +
        (other_spelling ? "` (it defines `" + swapped + "`, a different option string to argparse)" : "`") +
        ": every rank exits with \"unrecognized arguments: " + option + "=0\". ";
    message += ds ? "Add `parser.add_argument(\"--local_rank\", type=int)`, or pass `--no_local_rank` to `deepspeed`."
                  : "Launch with `torchrun` (it sets only the LOCAL_RANK variable), or define `--local-rank` in the "
                    "parser.";
    ctx.report(
        l.command_document->path(), c.script->region, std::move(message),
        {rule::RelatedLocation{parser_doc->path(), parser->parse->region, "The script's arguments are parsed here."}});
  }

 private:
  /// HfArgumentParser over the script's own dataclasses, read with parse_args_into_dataclasses() of the real
  /// command line: the option is rejected when no field is named `local_rank` (nor abbreviated by it). transformers
  /// v5.17.0 src/transformers/hf_argparser.py, `parse_args_into_dataclasses`: parse_known_args, then a ValueError
  /// for what remains unless return_remaining_strings.
  static void check_hf_parser(const model::Launch& l, const model::Document& script, const std::string& option,
                              rule::RuleContext& ctx) {
    const model::PythonFacts& py = *script.python;
    const std::vector<const model::PyCall*> parsers = py.calls_named("HfArgumentParser");
    if (parsers.size() != 1 || !parsers.front()->callee.starts_with("transformers.") ||
        parsers.front()->has_unresolved_unpacking || parsers.front()->keyword("allow_abbrev") != nullptr)
      return;
    for (std::string_view other :
         {"ArgumentParser", "TrlParser", "parse_known_args", "parse_known_intermixed_args", "parse_dict",
          "parse_json_file", "parse_yaml_file", "add_argument", "add_subparsers", "add_argument_group", "Fire"}) {
      if (!py.calls_named(other).empty()) return;
    }
    for (const model::PyCall* p : py.calls_named("parse_args")) {
      if (!p->receiver.empty()) return;  // an argparse-style parse as well
    }
    const model::PyArg* types = parsers.front()->keyword("dataclass_types");
    if (types == nullptr) types = parsers.front()->positional(0);
    if (types == nullptr) return;
    const std::string& text = script.source->text();
    const std::vector<std::string> classes = parser_classes(text, *types);
    if (classes.empty()) return;
    for (const std::string& cls : classes) {
      const std::optional<std::vector<std::string>> fields = own_dataclass_fields(py, cls);
      if (!fields) return;
      for (const std::string& f : *fields) {
        if (f.starts_with("local_rank")) return;  // the field, or a longer one `--local_rank` abbreviates
      }
    }
    const std::vector<const model::PyCall*> parses = py.calls_named("parse_args_into_dataclasses");
    if (parses.size() != 1 || parses.front()->receiver.empty() || parses.front()->has_unresolved_unpacking) return;
    for (const model::PyArg& a : parses.front()->args) {
      if (a.name != "look_for_args_file") return;  // args=, return_remaining_strings=, an args file flag
    }
    if (launch::passed_to_a_call(text, parses.front()->receiver)) return;

    const parse::LaunchCommand& c = *l.command;
    const bool ds = c.tool == parse::LaunchTool::DeepSpeed;
    std::string names;
    for (const std::string& cls : classes) names += (names.empty() ? "`" : ", `") + cls + "`";
    std::string message = std::string(ds ? "The `deepspeed` launcher" : "`torch.distributed.launch`") + " appends `" +
                          option + "=<rank>` to the script's arguments, and `" + script.path() +
                          "` parses them with HfArgumentParser over its own dataclasses (" + names +
                          "), none of which has a `local_rank` field: parse_args_into_dataclasses() raises "
                          "\"Some specified arguments are not used by the HfArgumentParser: ['" +
                          option + "=0']\" on every rank. ";
    message += ds ? "Add a `local_rank: int = -1` field to one of them (TrainingArguments has one), or pass "
                    "`--no_local_rank` to `deepspeed`."
                  : "Launch with `torchrun` (it sets only the LOCAL_RANK variable), or add a `local_rank: int = -1` "
                    "field to one of them.";
    ctx.report(
        l.command_document->path(), c.script->region, std::move(message),
        {rule::RelatedLocation{script.path(), parses.front()->region, "The script's arguments are parsed here."}});
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_local_rank_argument_rejected() {
  return std::make_unique<LocalRankArgumentRejected>();
}

}  // namespace lint::rules
