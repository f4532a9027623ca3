#include "lint/config/project_root.hpp"

#include <filesystem>
#include <system_error>

namespace lint::config {

namespace fs = std::filesystem;

std::vector<std::string> project_roots(const std::string& path) {
  std::error_code ec;
  fs::path dir = fs::absolute(path, ec).lexically_normal();
  if (ec) return {};
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  std::vector<std::string> out;
  while (!dir.empty()) {
    const bool git = fs::exists(dir / ".git", ec);
    bool marker = git;
    for (const char* name : {"launchlint.toml", ".launchlint.toml", "pyproject.toml"}) {
      marker = marker || fs::is_regular_file(dir / name, ec);
    }
    if (marker) out.push_back(dir.generic_string());
    if (git || dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return out;
}

std::string project_root(const std::string& path) {
  auto roots = project_roots(path);
  return roots.empty() ? std::string() : roots.back();
}

std::string shown_path(const std::string& absolute) {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  if (ec) return absolute;
  const fs::path rel = fs::path(absolute).lexically_relative(cwd);
  // Above the working directory it is `../x`, as the user would write it.
  const std::string s = rel.generic_string();
  return s.empty() ? "." : s;
}

}  // namespace lint::config
