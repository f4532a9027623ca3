// The GPU memory a project declares (`gpu-memory = "80GiB"` in launchlint.toml, or `--gpu-memory`), which MEM001
// compares the estimate with.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lint::memory {

/// Parses `80GiB`, `80 GiB`, `80GB` (decimal), `81920MiB`, `80G` (binary, as PyTorch prints): bytes, or nullopt.
std::optional<double> parse_memory_size(std::string_view text);

/// A `--gpu-memory` given on the command line (takes precedence over any config file).
void set_gpu_memory_override(std::optional<double> bytes);
[[nodiscard]] std::optional<double> gpu_memory_override();

/// The declared GPU memory for files under `dir`: the command-line override, else `gpu-memory` of the nearest
/// launchlint.toml / pyproject.toml [tool.launchlint] (cached per folder); nullopt when none is declared.
std::optional<double> declared_gpu_memory(const std::string& dir);

}  // namespace lint::memory
