// A training script's part of a launch: what its torch / Lightning calls, its accelerate plugin, its
// TrainingArguments / TRL configs, its checkpointing calls and (under a launch command) its command-line arguments
// assign. Each tool module collects its own; this file only says which run for a script.
#pragma once

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"
#include "lint/model/resolve.hpp"

namespace lint::model {

/// Collects the bound training script of `in` (nothing when there is none).
void collect_script(const BoundInputs& in, Launch& l);

/// A script linted alone: its assignments, decided with what the launcher would export left unknown.
void resolve_script_alone(const Document& doc, Launch& l);

}  // namespace lint::model
