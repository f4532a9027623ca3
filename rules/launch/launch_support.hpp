// Helpers shared by the launch-command rules (LCH*): the bound command, its script, and the shell text.
#pragma once

#include <string>
#include <string_view>

#include "rules/support.hpp"

namespace lint::rules::launch {

/// The training script bound to a launch (the Python file the command runs), or nullptr.
inline const model::Document* python_script(const model::Launch& l) {
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::PythonScript && d->python) return d;
  }
  return nullptr;
}

/// `accelerate launch`, `torchrun`, `deepspeed`: launchers that read their own flags up to the script and pass
/// everything after it to the script.
inline bool is_process_launcher(parse::LaunchTool t) {
  return t == parse::LaunchTool::AccelerateLaunch || t == parse::LaunchTool::Torchrun ||
         t == parse::LaunchTool::DeepSpeed;
}

/// A flag word's name: without leading dashes, before `=`, `-` replaced by `_`.
inline std::string flag_name(std::string_view word) {
  std::string name(word.substr(0, word.find('=')));
  while (!name.empty() && name.front() == '-') name.erase(0, 1);
  for (char& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

/// The basename of a path word.
inline std::string_view basename(std::string_view s) {
  const auto slash = s.rfind('/');
  return slash == std::string_view::npos ? s : s.substr(slash + 1);
}

inline bool is_python_interpreter(std::string_view word) {
  const std::string_view b = basename(word);
  return b == "python" || b == "python3" || (b.starts_with("python3.") && b.size() <= 10);
}

}  // namespace lint::rules::launch
