// The argparse parser of a training script, read statically for the launch-command rules that compare a command
// line with the options a script accepts (LCH007, LCH013). argparse's own behaviour, CPython v3.11.7
// Lib/argparse.py: parse_args() exits with "unrecognized arguments" for whatever parse_known_args() left
// (1868-1872); a long option is also accepted as the unique prefix of an option string when allow_abbrev is on (the
// default, 2293-2303); a `--name=value` word is split at `=` (2248-2252).
#pragma once

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/support.hpp"

namespace lint::rules::launch {

/// argparse's view of `option`: accepted when an option string equals it, or (allow_abbrev, the default) when it is
/// the prefix of exactly one option string.
inline bool accepted(const std::vector<std::string>& options, const std::string& option, bool allow_abbrev) {
  int prefixed = 0;
  for (const std::string& o : options) {
    if (o == option) return true;
    if (allow_abbrev && o.starts_with(option)) ++prefixed;
  }
  return prefixed == 1;
}

/// True when `name` appears as an argument of some call: `(name`, `, name` or `=name` followed by `,` or `)`.
inline bool passed_to_a_call(const std::string& text, const std::string& name) {
  if (name.empty()) return true;
  auto is_ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.'; };
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at > 0 && is_ident(text[at - 1])) || (end < text.size() && is_ident(text[end]))) continue;
    std::size_t b = at;
    while (b > 0 && (text[b - 1] == ' ' || text[b - 1] == '\t' || text[b - 1] == '\n')) --b;
    std::size_t e = end;
    while (e < text.size() && (text[e] == ' ' || text[e] == '\t' || text[e] == '\n')) ++e;
    const bool opens = b > 0 && (text[b - 1] == '(' || text[b - 1] == ',' ||
                                 (text[b - 1] == '=' && (b < 2 || (text[b - 2] != '=' && text[b - 2] != '!'))));
    const bool closes = e < text.size() && (text[e] == ',' || text[e] == ')');
    if (opens && closes) return true;
  }
  return false;
}

/// The one argparse parser a script reads its real command line with.
struct ArgparseParser {
  std::vector<std::string> options;  ///< every option string (`--lr`, `-b`), with `-h`/`--help` unless add_help=False
  /// Options whose `nargs` is argparse.REMAINDER (or another value that is not a count): they take every word
  /// after them on the command line.
  std::vector<std::string> remainder_options;
  bool allow_abbrev = true;
  const model::PyCall* parse = nullptr;  ///< the parse_args() call
};

/// The script's parser when every option of it is statically known: exactly one `argparse.ArgumentParser`, read with
/// one `parser.parse_args()` of the real command line, options named by literal strings. nullopt for anything else:
/// parse_known_args, sub-commands, parents, TrlParser, fire, a parser handed to a helper (which may add options),
/// an option name that is not a literal, a positional argument with a REMAINDER-like nargs.
inline std::optional<ArgparseParser> read_argparse(const model::PythonFacts& py, const std::string& text) {
  const std::vector<const model::PyCall*> parsers = py.calls_named("ArgumentParser");
  if (parsers.size() != 1 || parsers.front()->callee != "argparse.ArgumentParser") return std::nullopt;
  ArgparseParser out;
  if (const model::PyArg* a = parsers.front()->keyword("allow_abbrev")) {
    if (a->value.kind != model::ValueKind::Bool) return std::nullopt;
    out.allow_abbrev = a->value.boolean;
  }
  bool add_help = true;
  if (const model::PyArg* a = parsers.front()->keyword("add_help")) {
    if (a->value.kind != model::ValueKind::Bool) return std::nullopt;
    add_help = a->value.boolean;
  }
  for (std::string_view other : {"TrlParser", "parse_known_args", "parse_known_intermixed_args", "add_subparsers",
                                 "Fire", "parse_intermixed_args"}) {
    if (!py.calls_named(other).empty()) return std::nullopt;
  }
  // Options inherited from other parsers, or another prefix character than `-`.
  if (parsers.front()->keyword("parents") != nullptr || parsers.front()->keyword("prefix_chars") != nullptr)
    return std::nullopt;
  // parser.parse_args() (a method call): `args = parse_args()` is the script's own helper that wraps it.
  std::vector<const model::PyCall*> parses;
  for (const model::PyCall* p : py.calls_named("parse_args")) {
    if (!p->receiver.empty()) parses.push_back(p);
  }
  if (parses.size() != 1 || !parses.front()->args.empty() || parses.front()->has_unresolved_unpacking)
    return std::nullopt;
  // A parser handed to a helper (`add_model_args(parser)`, `deepspeed.add_config_arguments(parser)`) may get
  // options this file does not show.
  if (passed_to_a_call(text, parses.front()->receiver)) return std::nullopt;
  out.parse = parses.front();

  for (const model::PyCall* add : py.calls_named("add_argument")) {
    if (add->has_unresolved_unpacking) return std::nullopt;
    std::vector<std::string> names;
    bool option = true;
    for (const model::PyArg& a : add->args) {
      if (!a.name.empty()) continue;
      if (a.value.kind != model::ValueKind::String) return std::nullopt;  // an option name not statically known
      names.push_back(a.value.text);
      if (!a.value.text.starts_with("-")) option = false;
    }
    bool remainder = false;
    if (const model::PyArg* n = add->keyword("nargs");
        n != nullptr && n->value.kind != model::ValueKind::Int &&
        !(n->value.kind == model::ValueKind::String &&
          (n->value.text == "?" || n->value.text == "*" || n->value.text == "+"))) {
      // argparse.REMAINDER and the like: an option takes every word after it; a positional one the whole rest
      // of the command line, from wherever it starts.
      if (!option || names.empty()) return std::nullopt;
      remainder = true;
    }
    for (const std::string& name : names) {
      if (!name.starts_with("-")) continue;
      out.options.push_back(name);
      if (remainder) out.remainder_options.push_back(name);
    }
  }
  if (add_help) {
    out.options.emplace_back("-h");
    out.options.emplace_back("--help");
  }
  return out;
}

inline std::optional<ArgparseParser> read_argparse(const model::Document& script) {
  if (!script.python) return std::nullopt;
  return read_argparse(*script.python, script.source->text());
}

/// Whether the script reads or edits its command line in any way of its own: a parser of any kind, `sys.argv`.
inline bool reads_command_line_itself(const model::Document& script) {
  if (!script.python) return true;
  const model::PythonFacts& py = *script.python;
  for (std::string_view n : {"ArgumentParser", "parse_args", "parse_known_args", "HfArgumentParser", "TrlParser",
                             "parse_args_into_dataclasses", "Fire", "OptionParser", "getopt", "gnu_getopt"}) {
    if (!py.calls_named(n).empty()) return true;
  }
  const std::string& text = script.source->text();
  for (std::string_view n : {"sys.argv", "argv", "click", "typer", "hydra", "jsonargparse", "tyro"}) {
    if (text.find(n) != std::string::npos) return true;
  }
  return false;
}

/// The parser of a script that builds none itself and calls a function of a project module that does
/// (`opt, args = parse_options(root_path)` with `parse_options` in `basicsr/utils/options.py`): the one parser of
/// that module, built and read with parse_args() inside the function the script calls, as read_argparse reads a
/// script's. `module` is set to the module's document. nullopt when the script reads its command line itself, when
/// no module or more than one builds a parser, or when the parser is built or read elsewhere in the module.
inline std::optional<ArgparseParser> imported_argparse(const model::Launch& l, const model::Document& script,
                                                       const model::Document** module) {
  if (reads_command_line_itself(script)) return std::nullopt;
  const model::ImportedModule* found = nullptr;
  for (const model::ImportedModule& m : l.imported_modules) {
    const model::PythonFacts* py = m.python();
    if (py == nullptr || py->calls_named("ArgumentParser").empty()) continue;
    if (found != nullptr) return std::nullopt;  // two modules build parsers: which one reads the command line?
    found = &m;
  }
  if (found == nullptr) return std::nullopt;
  const model::PythonFacts& py = *found->python();
  const std::string& text = found->document->source->text();
  // The module may read sys.argv (BasicSR logs `' '.join(sys.argv)`), but not change it before the parse.
  for (std::string_view edit :
       {"sys.argv =", "sys.argv[", "sys.argv.", "sys.argv +=", "del sys.argv", "argv=", "argv ="}) {
    if (text.find(edit) != std::string::npos) return std::nullopt;
  }
  std::optional<ArgparseParser> parser = read_argparse(py, text);
  if (!parser) return std::nullopt;
  const model::PyCall* built = py.calls_named("ArgumentParser").front();
  if (built->function.empty() || built->function != parser->parse->function) return std::nullopt;
  if (std::find(found->names.begin(), found->names.end(), built->function) == found->names.end()) return std::nullopt;
  *module = found->document;
  return parser;
}

}  // namespace lint::rules::launch
