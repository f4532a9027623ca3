// The HF Trainer and TRL (transformers 5.17 `_process_fsdp_args`, training_args.py:2734-2896): the settings a
// TrainingArguments-like call assigns, from a literal call in the script or from the script's command line
// (HfArgumentParser / TrlParser). The schema it follows is lint/model/trainer/schema.hpp.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"

namespace lint::model::trainer {

/// One TrainingArguments-like call (a literal call in the script, or the command line turned into one).
/// `fsdp_config_doc`: the bound JSON the call's `fsdp_config` value was read from, if any.
void collect_call(const Document& doc, const PyCall& c, Launch& l, const Document* fsdp_config_doc = nullptr);

/// Every TrainingArguments / TRL config call of a script.
void collect_arguments(const Document& doc, const PythonFacts& py, Launch& l);

/// The TrainingArguments dataclass an HfArgumentParser / TrlParser in the script builds, if any; none when the
/// parser is given only dataclasses of the script without bases (`HfArgumentParser(ScriptArguments)`). `text`: the
/// script's text, for the names of the classes given (a class of the file is no static value).
std::optional<std::string> parser_config_class(const PythonFacts& py, std::string_view text);

/// The text of an argument's value as written (`X` of `dataclass_types=X`), trimmed; empty when its region is not
/// in `text`.
std::string argument_text(std::string_view text, const PyArg& a);

/// Whether `s` is a Python identifier of ASCII letters, digits and `_` (not starting with a digit).
bool is_identifier(std::string_view s);

/// The class names of a parser's `dataclass_types` as written: `X`, `(X, Y)`, `[X, Y]`; empty for anything else.
std::vector<std::string> dataclass_names(std::string t);

/// The launch command's script arguments as the TrainingArguments call HfArgumentParser would build
/// (`--fsdp_config x.json` read from `fsdp_config_doc` when bound).
void collect_cli(const Document& script_doc, const parse::LaunchCommand& cmd, const std::string& cls,
                 const Document* fsdp_config_doc, Launch& l);

}  // namespace lint::model::trainer
