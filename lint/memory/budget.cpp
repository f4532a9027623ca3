#include "lint/memory/budget.hpp"

#include <atomic>
#include <cctype>
#include <charconv>
#include <cmath>
#include <map>
#include <mutex>

#include "lint/config/project_config.hpp"

namespace lint::memory {

namespace {

std::mutex g_mutex;
std::optional<double> g_override;
std::map<std::string, std::optional<double>> g_cache;

}  // namespace

std::optional<double> parse_memory_size(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  // from_chars reads `inf` and `nan` too: neither is a size.
  if (ec != std::errc{} || !std::isfinite(value) || value <= 0) return std::nullopt;
  std::string unit(end, text.data() + text.size());
  std::erase_if(unit, [](char c) { return c == ' '; });
  for (char& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::map<std::string, double> kUnits = {
      {"", 1.0},     {"b", 1.0},       {"kb", 1e3},         {"mb", 1e6},           {"gb", 1e9},
      {"tb", 1e12},  {"kib", 1024.0},  {"mib", 1048576.0},  {"gib", 1073741824.0}, {"tib", 1099511627776.0},
      {"k", 1024.0}, {"m", 1048576.0}, {"g", 1073741824.0}, {"t", 1099511627776.0}};
  const auto it = kUnits.find(unit);
  if (it == kUnits.end()) return std::nullopt;
  // No GPU has less than 1 GiB: a smaller size is a missing or wrong unit (`80` meant as 80 GiB would be 80 bytes).
  // Nor more than 64 TiB: a size that large (1e300GiB) would silence every memory finding.
  if (value * it->second < kMinGpuMemoryBytes || value * it->second > kMaxGpuMemoryBytes) return std::nullopt;
  return value * it->second;
}

void set_gpu_memory_override(std::optional<double> bytes) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_override = bytes;
}

std::optional<double> gpu_memory_override() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  return g_override;
}

std::optional<double> declared_gpu_memory(const std::string& dir) {
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_override) return g_override;
  if (auto it = g_cache.find(dir); it != g_cache.end()) return it->second;
  std::string error;
  std::optional<double> out;
  // A config with errors is reported by the CLI; here it simply declares nothing.
  if (auto cfg = config::discover_config(dir.empty() ? "." : dir, error); cfg && cfg->gpu_memory)
    out = parse_memory_size(*cfg->gpu_memory);
  g_cache[dir] = out;
  return out;
}

}  // namespace lint::memory
