// The GPU memory a project declares (`gpu-memory = "80GiB"` in launchlint.toml, or `--gpu-memory`), which MEM001
// compares the estimate with.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace lint::memory {

/// The smallest GPU memory accepted: below it a size is taken to have a missing or wrong unit.
inline constexpr double kMinGpuMemoryBytes = 1073741824.0;
/// 64 TiB: far above any accelerator's memory, so that a typo cannot silence every memory finding.
inline constexpr double kMaxGpuMemoryBytes = 64.0 * 1099511627776.0;

/// Parses `80GiB`, `80 GiB`, `80GB` (decimal), `81920MiB`, `80G` (binary, as PyTorch prints): bytes, or nullopt
/// (not a size, or less than 1 GiB: `80` alone is 80 bytes, surely not what was meant).
std::optional<double> parse_memory_size(std::string_view text);

/// A `--gpu-memory` given on the command line (takes precedence over any config file).
void set_gpu_memory_override(std::optional<double> bytes);
[[nodiscard]] std::optional<double> gpu_memory_override();

/// The declared GPU memory for files under `dir`: the command-line override, else `gpu-memory` of the nearest
/// launchlint.toml / pyproject.toml [tool.launchlint] (cached per folder); nullopt when none is declared.
std::optional<double> declared_gpu_memory(const std::string& dir);

}  // namespace lint::memory
