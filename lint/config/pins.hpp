// The library versions a project pins, read from its dependency files (never executed): requirements*.txt (and
// requirements/*.txt), pyproject.toml (`[project] dependencies`, `[project.optional-dependencies]`,
// `[dependency-groups]`, `[tool.poetry.dependencies]`), setup.cfg (`install_requires`, `extras_require`), setup.py
// (requirement string literals, read as text) and
// conda's environment.yml (conda specs and its `pip:` list), and the `pip install` commands of an install script
// (`install*.sh`, `setup*.sh`) or a Dockerfile, read as text. docs/versions.md describes what is assumed.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/versions.hpp"

namespace lint::config {

/// One PEP 508 requirement (`name[extras] specifiers ; marker`), as far as launchlint reads it.
struct Requirement {
  std::string name;         ///< as written
  std::string specifiers;   ///< `>=2.4,<2.6` (parentheses and spaces removed); "" for any version
  std::string marker;       ///< after `;`, trimmed
  bool direct_url = false;  ///< `name @ url`: no version can be read
};

/// Parses one requirement (a comment or an option line gives nullopt).
std::optional<Requirement> parse_requirement(std::string_view text);

/// A conda match spec (`pytorch=2.4`, `pytorch==2.4.1`, `pytorch>=2.4`, `conda-forge::pytorch 2.4.*`) as a
/// requirement: conda's `=2.4` is `==2.4.*`.
std::optional<Requirement> parse_conda_spec(std::string_view text);

/// Poetry's version constraints (`^2.4`, `~2.4`, `2.4.*`, `>=2.4,<2.6`, `2.4.1`) as PEP 440 specifiers.
std::string poetry_to_specifiers(std::string_view constraint);

/// A pin of a library launchlint knows, with where it was written.
struct Pin {
  std::string library;  ///< canonical (model::canonical_library)
  std::string written;  ///< the requirement as written, trimmed
  std::string path;
  int line = 0;
  model::VersionRange range;
  bool direct_url = false;  ///< `name @ url` (a fork or a commit): the version is unknown and `range` is empty
};

/// The pins of known libraries in one dependency file (its kind from its name); unknown names and unreadable
/// versions are skipped. A requirement whose marker only holds on macOS or Windows is skipped (training runs on
/// Linux); other markers are ignored.
std::vector<Pin> pins_in_file(const std::string& path, const std::string& text);

/// True for the names pins_in_file reads.
bool is_dependency_file(std::string_view filename);

/// The pins found in `folders` (each searched without recursion, plus its `requirements/` folder), first folder
/// first; within one, pyproject.toml, setup.cfg, requirements*.txt (sorted), environment.yml, then install scripts and a
/// Dockerfile (`pip install` commands, sorted). The first pin of a
/// library wins, except that an exact pin (`==`) beats an earlier range.
std::vector<Pin> detect_pins(const std::vector<std::string>& folders);

/// Applies pins to `versions` for the libraries not in `keep` (set explicitly by config or command line).
void apply_pins(const std::vector<Pin>& pins, const std::vector<std::string>& keep, model::TargetVersions& versions);

}  // namespace lint::config
