// Moved: the shell reader lives in lint/parse/shell_reader.hpp. This header keeps the old names in lint::model.
#pragma once

#include "lint/parse/shell_reader.hpp"

namespace lint::model {
using parse::find_arg;
using parse::find_flag;
using parse::find_launch_commands;
using parse::Flag;
using parse::int_of;
using parse::LaunchCommand;
using parse::LaunchTool;
using parse::script_arguments;
using parse::ScriptArg;
using parse::to_string;
using parse::Word;
}  // namespace lint::model
