#include "lint/config/project_config.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "lint/config/suggest.hpp"
#include "lint/memory/budget.hpp"
#include "lint/parse/readers.hpp"
#include "lint/source/access_log.hpp"
#include "lint/source/read_file.hpp"

namespace lint::config {

namespace fs = std::filesystem;

namespace {

std::string where(const std::string& path, const parse::Node& n) {
  return path + ":" + std::to_string(n.region.begin.line) + ":" + std::to_string(n.region.begin.column);
}

const std::vector<std::string> kLaunchKeys = {"name", "command", "files", "config", "script"};
const std::vector<std::string> kFailOn = {"error", "warning", "info", "never"};

bool string_list(const std::string& path, const parse::Node& n, std::vector<std::string>& out, std::string& error) {
  if (n.kind != parse::NodeKind::Sequence) {
    error = where(path, n) + ": expected a list of strings";
    return false;
  }
  for (const parse::Node& it : n.items) {
    if (it.kind != parse::NodeKind::String) {
      error = where(path, it) + ": expected a string";
      return false;
    }
    out.push_back(it.text);
  }
  return true;
}

/// `p` as written in a config file in `base_dir`: an absolute path as is, a relative one from that folder.
std::string relative_to_config(const std::string& base_dir, const std::string& p) {
  if (fs::path(p).is_absolute() || base_dir.empty() || base_dir == ".") return p;
  return (fs::path(base_dir) / p).lexically_normal().generic_string();
}

std::optional<ProjectConfig> interpret(const std::string& path, const parse::Node& table, std::string& error) {
  ProjectConfig cfg;
  cfg.path = path;
  cfg.base_dir = fs::path(path).parent_path().generic_string();
  if (cfg.base_dir.empty()) cfg.base_dir = ".";
  for (const parse::Entry& e : table.entries) {
    const std::string& k = e.key.text;
    const parse::Node& v = e.value;
    auto note_codes = [&](const parse::Node& list) {
      for (const parse::Node& it : list.items) cfg.codes.push_back(CodeRef{it.text, where(path, it)});
    };
    if (k == "select") {
      std::vector<std::string> s;
      if (!string_list(path, v, s, error)) return std::nullopt;
      note_codes(v);
      cfg.select = std::move(s);
    } else if (k == "ignore") {
      if (!string_list(path, v, cfg.ignore, error)) return std::nullopt;
      note_codes(v);
    } else if (k == "extend-select") {
      if (!string_list(path, v, cfg.extend_select, error)) return std::nullopt;
      note_codes(v);
    } else if (k == "exclude") {
      std::vector<std::string> s;
      if (!string_list(path, v, s, error)) return std::nullopt;
      cfg.exclude = std::move(s);
    } else if (k == "extend-exclude") {
      if (!string_list(path, v, cfg.extend_exclude, error)) return std::nullopt;
    } else if (k == "allow-outside") {
      // Paths relative to the config file, like `--allow-outside` relative to the working folder.
      std::vector<std::string> s;
      if (!string_list(path, v, s, error)) return std::nullopt;
      for (const std::string& p : s) cfg.allow_outside.push_back(relative_to_config(cfg.base_dir, p));
    } else if (k == "cache-dir") {
      if (v.kind != parse::NodeKind::String || v.text.empty()) {
        error = where(path, v) + ": cache-dir must be a folder path";
        return std::nullopt;
      }
      cfg.cache_dir = relative_to_config(cfg.base_dir, v.text);
    } else if (k == "fail-on") {
      if (v.kind != parse::NodeKind::String || std::find(kFailOn.begin(), kFailOn.end(), v.text) == kFailOn.end()) {
        error = where(path, v) + ": fail-on must be \"error\", \"warning\", \"info\" or \"never\"" +
                (v.kind == parse::NodeKind::String ? did_you_mean(v.text, kFailOn) : "");
        return std::nullopt;
      }
      cfg.fail_on = v.text;
    } else if (k == "severity") {
      if (!v.is_map()) {
        error = where(path, v) + ": severity must be a table of CODE = \"error|warning|info\"";
        return std::nullopt;
      }
      for (const parse::Entry& s : v.entries) {
        auto sev = rule::parse_severity(s.value.text);
        if (s.value.kind != parse::NodeKind::String || !sev) {
          error = where(path, s.value) + ": severity must be \"error\", \"warning\" or \"info\"";
          return std::nullopt;
        }
        cfg.severity[s.key.text] = *sev;
        cfg.codes.push_back(CodeRef{s.key.text, where(path, s.key)});
      }
    } else if (k == "per-file-ignores") {
      if (!v.is_map()) {
        error = where(path, v) + ": per-file-ignores must be a table of \"glob\" = [codes]";
        return std::nullopt;
      }
      for (const parse::Entry& s : v.entries) {
        driver::PerFileIgnore p;
        p.glob = s.key.text;
        if (!string_list(path, s.value, p.codes, error)) return std::nullopt;
        note_codes(s.value);
        cfg.per_file_ignores.push_back(std::move(p));
      }
    } else if (k == "gpu-memory") {
      if ((v.kind != parse::NodeKind::String && v.kind != parse::NodeKind::Int) || !memory::parse_memory_size(v.text)) {
        error = where(path, v) +
                ": gpu-memory must be the memory of one GPU with its unit, such as \"80GiB\" (at least 1 GiB, "
                "at most 64 TiB), not " +
                (v.kind == parse::NodeKind::String ? "\"" + shown_value(v.text) + "\"" : shown_value(v.text));
        return std::nullopt;
      }
      cfg.gpu_memory = v.text;
    } else if (k == "target-versions") {
      if (!v.is_map()) {
        error = where(path, v) + ": target-versions must be a table of library = \"version\" (e.g. torch = \"2.4\")";
        return std::nullopt;
      }
      for (const parse::Entry& s : v.entries) {
        const parse::Node& ver = s.value;
        if (ver.kind != parse::NodeKind::String && ver.kind != parse::NodeKind::Float &&
            ver.kind != parse::NodeKind::Int) {
          error = where(path, ver) + ": a target version is a string such as \"2.4\" or \">=2.4,<2.6\"";
          return std::nullopt;
        }
        std::string origin = where(path, s.key);
        if (origin.starts_with("./")) origin.erase(0, 2);
        model::VersionSetting set{s.key.text, ver.text, origin + " (target-versions)"};
        std::string why;
        if (!model::assume_setting(set, why)) {
          error = where(path, model::canonical_library(s.key.text).empty() ? s.key : ver) + ": target-versions: " + why;
          return std::nullopt;
        }
        cfg.target_versions.push_back(std::move(set));
      }
    } else if (k == "launch") {
      if (v.kind != parse::NodeKind::Sequence) {
        error = where(path, v) + ": launch must be an array of tables ([[launch]])";
        return std::nullopt;
      }
      for (const parse::Node& t : v.items) {
        driver::DeclaredLaunch l;
        l.base_dir = cfg.base_dir;
        l.config_path = path;
        for (const parse::Entry& f : t.entries) {
          if (f.key.text == "name")
            l.name = f.value.text;
          else if (f.key.text == "command") {
            l.command = f.value.text;
            // The string's contents, without its quotes (one for basic/literal, three for multi-line strings).
            const std::size_t q =
                f.value.region.end_byte - f.value.region.begin_byte >= 6 && f.value.text.find('\n') != std::string::npos
                    ? 3
                    : 1;
            l.command_begin = f.value.region.begin_byte + q;
            l.command_end = f.value.region.end_byte >= q ? f.value.region.end_byte - q : f.value.region.end_byte;
          } else if (f.key.text == "files") {
            if (!string_list(path, f.value, l.files, error)) return std::nullopt;
          } else if (f.key.text == "config" || f.key.text == "script") {
            l.files.push_back(f.value.text);
          } else {
            error = where(path, f.key) + ": unknown key '" + shown_value(f.key.text) + "' in [[launch]]" +
                    did_you_mean(f.key.text, kLaunchKeys);
            return std::nullopt;
          }
        }
        cfg.launches.push_back(std::move(l));
      }
    } else {
      error = where(path, e.key) + ": unknown configuration key '" + shown_value(k) + "'" + did_you_mean(k, config_keys());
      return std::nullopt;
    }
  }
  return cfg;
}

}  // namespace

const std::vector<std::string>& default_excludes() {
  static const std::vector<std::string> kDefault = {
      ".git",          ".hg",         ".svn",  ".tox", ".nox",  ".mypy_cache",  ".ruff_cache",
      ".pytest_cache", "__pycache__", ".venv", "venv", "build", "node_modules", "site-packages"};
  return kDefault;
}

const std::vector<std::string>& config_keys() {
  static const std::vector<std::string> kKeys = {
      "select",           "ignore", "extend-select", "exclude",         "extend-exclude", "fail-on",  "severity",
      "per-file-ignores", "launch", "gpu-memory",    "target-versions", "allow-outside",  "cache-dir"};
  return kKeys;
}

std::optional<ProjectConfig> load_config(const std::string& path, std::string& error) {
  // The same limits as any linted file: a FIFO, a device or a directory is refused, never read or waited on.
  source::ReadResult read = source::read_regular_file(path, driver::kMaxFileBytes);
  if (!read.text) {
    error = path + ": cannot read configuration file: " + read.error;
    return std::nullopt;
  }
  const source::SourceFile file(path, std::move(*read.text));
  const parse::ConfigDocument doc = parse::read_toml(file);
  if (!doc.errors.empty()) {
    const auto& e = doc.errors.front();
    error = path + ":" + std::to_string(e.region.begin.line) + ":" + std::to_string(e.region.begin.column) + ": " +
            e.message;
    return std::nullopt;
  }
  if (!doc.has_root || !doc.root.is_map()) {
    ProjectConfig empty;
    empty.path = path;
    empty.base_dir = fs::path(path).parent_path().generic_string();
    return empty;
  }
  const bool pyproject = fs::path(path).filename() == "pyproject.toml";
  if (pyproject) {
    const parse::Node* tool = doc.root.find("tool");
    const parse::Node* ours = tool != nullptr && tool->is_map() ? tool->find("launchlint") : nullptr;
    if (ours == nullptr) return std::nullopt;
    return interpret(path, *ours, error);
  }
  return interpret(path, doc.root, error);
}

std::optional<ProjectConfig> discover_config(const std::string& start_dir, std::string& error) {
  std::error_code ec;
  fs::path dir = fs::absolute(start_dir, ec);
  while (!dir.empty()) {
    for (const char* name : {"launchlint.toml", ".launchlint.toml", "pyproject.toml"}) {
      const fs::path candidate = dir / name;
      source::note_access(candidate.string());
      if (!fs::is_regular_file(candidate, ec)) continue;
      const fs::path shown = candidate.lexically_relative(fs::current_path(ec));
      auto cfg = load_config(shown.empty() ? candidate.string() : shown.generic_string(), error);
      if (cfg || !error.empty()) return cfg;
    }
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

}  // namespace lint::config
