// The HF Trainer and TRL (transformers 5.17 `_process_fsdp_args`, training_args.py:2734-2896): the settings a
// TrainingArguments-like call assigns, from a literal call in the script or from the script's command line
// (HfArgumentParser / TrlParser). The schema it follows is lint/model/trainer/schema.hpp.
#pragma once

#include <optional>
#include <string>

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"

namespace lint::model::trainer {

/// One TrainingArguments-like call (a literal call in the script, or the command line turned into one).
/// `fsdp_config_doc`: the bound JSON the call's `fsdp_config` value was read from, if any.
void collect_call(const Document& doc, const PyCall& c, Launch& l, const Document* fsdp_config_doc = nullptr);

/// Every TrainingArguments / TRL config call of a script.
void collect_arguments(const Document& doc, const PythonFacts& py, Launch& l);

/// The TrainingArguments dataclass an HfArgumentParser / TrlParser in the script builds, if any.
std::optional<std::string> parser_config_class(const PythonFacts& py);

/// The launch command's script arguments as the TrainingArguments call HfArgumentParser would build
/// (`--fsdp_config x.json` read from `fsdp_config_doc` when bound).
void collect_cli(const Document& script_doc, const parse::LaunchCommand& cmd, const std::string& cls,
                 const Document* fsdp_config_doc, Launch& l);

}  // namespace lint::model::trainer
