// The project's own configuration: launchlint.toml, .launchlint.toml or [tool.launchlint] in pyproject.toml.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lint/driver/driver.hpp"
#include "lint/model/versions.hpp"

namespace lint::config {

/// A rule code (or prefix) written in the config, with its position, so the CLI can reject unknown ones.
struct CodeRef {
  std::string code;
  std::string where;  ///< "path:line:column"
};

struct ProjectConfig {
  std::string path;                 ///< the file it came from ("" when none was found)
  std::string base_dir;             ///< its directory: exclude and per-file-ignores are relative to it
  std::optional<std::vector<std::string>> select;
  std::vector<std::string> ignore;
  std::vector<std::string> extend_select;
  std::map<std::string, rule::Severity> severity;
  std::optional<std::vector<std::string>> exclude;  ///< replaces the default excludes
  std::vector<std::string> extend_exclude;          ///< added to the excludes
  std::vector<driver::PerFileIgnore> per_file_ignores;
  std::optional<std::string> fail_on;
  std::optional<std::string> gpu_memory;  ///< `gpu-memory = "80GiB"`: per-GPU memory for MEM001
  std::vector<driver::DeclaredLaunch> launches;
  /// `target-versions = { torch = "2.4", transformers = ">=4.46,<4.50" }` (docs/versions.md)
  std::vector<model::VersionSetting> target_versions;
  std::vector<CodeRef> codes;  ///< every code in select, ignore, extend-select, severity, per-file-ignores
};

/// Folders never walked unless `exclude` replaces this list (`extend-exclude` adds to it). A pattern without a
/// slash matches any path component.
const std::vector<std::string>& default_excludes();

/// The keys a configuration file may hold (for "did you mean").
const std::vector<std::string>& config_keys();

/// Finds the config closest to `start_dir` (walking up to the filesystem root). Errors (bad TOML, unknown keys,
/// wrong types) are returned in `error`, which the CLI reports with exit code 2.
std::optional<ProjectConfig> discover_config(const std::string& start_dir, std::string& error);

/// Loads one config file explicitly (`--config FILE`).
std::optional<ProjectConfig> load_config(const std::string& path, std::string& error);

}  // namespace lint::config
