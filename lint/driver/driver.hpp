// The pipeline: discover -> load -> facts -> launches -> rules -> suppressions -> sort/dedupe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lint/bind/declared_launch.hpp"
#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"
#include "lint/model/versions.hpp"
#include "lint/rule/diagnostic.hpp"
#include "lint/rule/rule.hpp"
#include "lint/source/path_list.hpp"

namespace lint::driver {

/// Which rules run and how severe their findings are.
struct Selection {
  std::vector<std::string> select = {"ALL"};  ///< codes or prefixes
  std::vector<std::string> ignore;
  std::vector<std::string> extend_select;
  std::map<std::string, rule::Severity> severity;  ///< code (or prefix) -> severity override

  [[nodiscard]] bool enabled(std::string_view code) const;
};

struct PerFileIgnore {
  std::string glob;  ///< matched against the path relative to the config's directory
  std::vector<std::string> codes;
};

/// A launch declared in the project config (`[[launch]]`); binding reads it (lint/bind/declared_launch.hpp).
using DeclaredLaunch = bind::DeclaredLaunch;

struct RunOptions {
  std::vector<std::string> paths = {"."};
  bool read_stdin = false;
  std::string stdin_text;
  std::string stdin_filename = "stdin";
  Selection selection;
  std::vector<std::string> exclude;  ///< globs, relative to the working directory
  std::vector<PerFileIgnore> per_file_ignores;
  std::vector<DeclaredLaunch> declared_launches;
  unsigned jobs = 0;  ///< 0: all cores
  bool show_suppressed = false;
  bool respect_gitignore = true;
  /// Files and folders outside the project boundary that launches may still read (`--allow-outside PATH`).
  std::vector<std::string> allow_outside;
  /// Text that replaces a file's content on disk, by path (as discovered, normalised: `a/b.yaml`, no `./`):
  /// unsaved editor buffers, fixes not yet written. A path here that is not on disk is still read when named.
  std::map<std::string, std::string> overlay;
  /// Keep the resolved launches in RunResult (explain, the language server). Off, each launch is dropped once its
  /// rules have run, so memory does not grow with the number of launches.
  bool keep_launches = true;
  /// Versions set by the project config, then the command line (a later one of a library wins); the other
  /// libraries' versions come from the project's pins (`detect_pins`) or the built-in defaults (docs/versions.md).
  std::vector<model::VersionSetting> target_versions;
  bool detect_pins = true;
  /// Folders searched for pins before the linted paths' own (the project config's folder).
  std::vector<std::string> pin_folders;
};

struct RunResult {
  std::vector<rule::Diagnostic> diagnostics;  ///< sorted, deduplicated; suppressed ones only if asked
  std::vector<std::unique_ptr<model::Document>> documents;
  std::vector<model::Launch> launches;  ///< each file alone, then bound launches (if keep_launches)
  source::SourceMap sources;            ///< every document's source, by path
  /// A run that streams its launches keeps a file that gave nothing and that no launch read as its path alone (a
  /// file launchlint does not know: no finding, no suppression comment, no error): it was checked, and is counted.
  source::PathList quiet;
  std::size_t files_checked = 0;
  model::TargetVersions versions;  ///< the versions the rules assumed, with where each came from
};

/// The versions a run assumes: `options.target_versions`, then pins found in `options.pin_folders` and, for each
/// linted path, its folder and the project roots above it (lint/config/pins.hpp), then the built-in defaults.
/// Settings are assumed valid (the config and the command line check them).
model::TargetVersions resolve_target_versions(const RunOptions& options);

/// Hard limits (docs/limits.md).
inline constexpr std::uintmax_t kMaxFileBytes = 64ULL * 1024 * 1024;
/// YAML and JSON files of at least this size are read shallow first, in full only if they are launch configs
/// (docs/limits.md "Huge files").
inline constexpr std::size_t kShallowFirstBytes = 1024ULL * 1024;
/// A big TOML that cannot be a torchtitan config but whose errors are reported (named, or it looks like a launch
/// file) is checked by toml++ in pieces of about this size, cut at table headers (parse::check_toml_in_pieces).
inline constexpr std::size_t kTomlPieceBytes = 64ULL * 1024;
/// Findings of one rule in one file beyond this are summarised in one finding.
inline constexpr std::size_t kMaxFindingsPerRuleAndFile = 100;

/// Runs the whole pipeline. Never throws for bad input: every problem with a file becomes a finding.
RunResult run(const rule::RuleTable& rules, const RunOptions& options);

/// The project boundary of a run (SECURITY.md): the canonical folders and files its launches may read.
std::vector<std::string> boundary_roots(const RunOptions& options);

/// Loads one file's text into a Document (format by name, kind by content). Exposed for tests and `explain`.
std::unique_ptr<model::Document> load_document(std::string path, std::string text, bool explicitly_named);

/// Streaming (a run that does not keep its launches): gives back the tree of a launch config whose per-file rules
/// ran, keeping only what binding reads (bind::binding_view); its errors and kind stay. False (nothing done) for
/// any other document: a script, a file launchlint does not know, a CI workflow, a tree already given back.
bool release_config(model::Document& doc);
/// Reads the tree of a config given back by release_config again, from its text read back with the content check
/// of source::SourceFile. False when the file changed since: its tree is then empty (no facts from the new content,
/// and its launches are not checked: the run reports LL002 on it instead). True for a tree not given back.
bool reload_config(model::Document& doc);

/// A folder of a walked tree that could not be listed, as shown, and why (the system's message).
struct Unlistable {
  std::string path;
  std::string reason;
};

/// Files under `paths` that launchlint reads (directories walked, .gitignore honoured, excludes applied).
/// The folders of each level of a walked tree are listed on `jobs` threads; the result does not depend on it.
/// Folders that could not be listed go to `unlistable` (sorted by path): their files are not among the result.
std::vector<std::string> discover(const std::vector<std::string>& paths, const std::vector<std::string>& exclude,
                                  bool respect_gitignore, std::vector<std::string>* explicit_files, unsigned jobs = 1,
                                  std::vector<Unlistable>* unlistable = nullptr);

/// .gitignore files consulted and rules evaluated by discover() since the process started (a cost counter: tests bound
/// it to check that discovery stays linear in files and .gitignore files).
std::size_t ignore_rule_evaluations();

/// The folder of launchlint's result cache at a project root; discovery never walks into it.
inline constexpr const char* kCacheDirName = ".launchlint_cache";

/// fnmatch-style glob with `**` spanning directories.
bool glob_match(std::string_view pattern, std::string_view path);

}  // namespace lint::driver
