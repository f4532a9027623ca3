// Which class a Python file's `TrainingArguments(...)` builds when the name is imported from a module other than
// transformers / trl: the project's own class of that name (xtuner's pydantic `TrainingArguments`) is not the
// Trainer's, while the project's subclass of the library's class (ms-swift's) is.
#pragma once

#include <string>

#include "lint/model/python_facts.hpp"

namespace lint::bind {

/// Drops from `py` (the facts of the Python file at `path`) the calls of a class named like the Trainer's
/// arguments (TrainingArguments, Seq2SeqTrainingArguments, TRL's SFTConfig, ...) that the file imports from another
/// module than transformers / trl, unless that class is known to be the library's or to derive from it: the import
/// is followed into the project's files (the module, a package's `__init__.py`, the names it imports again) and the
/// class's bases are read, a bounded number of files and levels deep. A class that is not found, or whose bases
/// are not known, is not taken for the library's: rules about the Trainer's arguments stay silent on it. The
/// files are read as text and parsed, never run; each looked-for path is noted for the result cache.
void drop_foreign_argument_classes(const std::string& path, model::PythonFacts& py);

}  // namespace lint::bind
