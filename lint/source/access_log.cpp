#include "lint/source/access_log.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>

namespace lint::source {

namespace {

std::atomic<bool> g_open{false};
std::mutex g_mutex;
std::set<std::string, std::less<>> g_paths;

}  // namespace

void note_access(std::string_view path) {
  if (!g_open.load(std::memory_order_acquire)) return;
  const std::lock_guard<std::mutex> lock(g_mutex);
  if (g_paths.find(path) == g_paths.end()) g_paths.emplace(path);
}

void begin_access_log() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_paths.clear();
  g_open.store(true, std::memory_order_release);
}

std::vector<std::string> end_access_log() {
  const std::lock_guard<std::mutex> lock(g_mutex);
  g_open.store(false, std::memory_order_release);
  std::vector<std::string> out(g_paths.begin(), g_paths.end());
  g_paths.clear();
  return out;
}

}  // namespace lint::source
