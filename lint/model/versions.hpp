// The library versions a project targets: the versions the rules' facts are checked against. Built-in defaults are
// the versions the knowledge describes (docs/sources.md); a project overrides them with `target-versions` in its
// config, `--target-version pkg=ver` on the command line, or its own pins (requirements*.txt, pyproject.toml,
// setup.cfg, environment.yml; lint/config/pins.hpp). A pin is a range: the version assumed is the newest it allows
// (what pip installs), the built-in default when the range holds it.
#pragma once

#include <compare>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lint::model {

/// A release number, major.minor.patch (missing parts are 0; pre-release and local parts are dropped).
struct Version {
  int major = 0;
  int minor = 0;
  int patch = 0;
  auto operator<=>(const Version&) const = default;
  [[nodiscard]] std::string str() const;
};

/// "2.4", "2.4.1", "v5.17.0", "2.6.0+cu124", "0.19.5rc1" -> the release; nullopt for anything else.
std::optional<Version> parse_version(std::string_view text);

/// What a pin allows: [low, high] or [low, high) (either side open when absent).
struct VersionRange {
  std::optional<Version> low;
  bool low_inclusive = true;
  std::optional<Version> high;
  bool high_inclusive = false;
  [[nodiscard]] bool contains(const Version& v) const;
  [[nodiscard]] bool empty() const;
};

/// A PEP 440 specifier set (`>=2.4,<2.6`, `==2.4.*`, `~=2.4.1`, `==2.4.1`, `!=2.5`) as a range; nullopt when a
/// clause cannot be read. `!=` is ignored (it excludes a point, not a range).
std::optional<VersionRange> parse_specifiers(std::string_view spec);

/// The version the rules assume for one library, and where it came from.
struct AssumedVersion {
  std::string library;     ///< canonical name: torch, accelerate, transformers, peft, deepspeed, torchtitan, lightning,
                           ///< trl, llamafactory
  std::string written;     ///< the pin as written (`torch>=2.4,<2.6`), or the version for a default / override
  std::string origin;      ///< `requirements.txt:3`, `launchlint.toml:4:1 (target-versions)`, `--target-version`, ...
  bool is_default = true;  ///< the built-in default (docs/sources.md)
  /// The installed version is assumed to lie in [low, high] (high_inclusive) or [low, high).
  Version low;
  Version high;
  bool high_inclusive = true;

  [[nodiscard]] bool exact() const { return high_inclusive && low == high; }
  /// "2.11", "2.4.1", "2.5.x (below 2.6)".
  [[nodiscard]] std::string display() const;
};

/// The libraries version-aware rules know, with their built-in defaults.
struct KnownLibrary {
  std::string_view name;
  std::string_view default_version;
  std::string_view aliases;  ///< other distribution names, space separated (pytorch-lightning for lightning)
};
const std::vector<KnownLibrary>& known_libraries();
/// The canonical library for a distribution name (PEP 503 normalised: case, `_`, `.` and `-` alike); "" if none.
std::string canonical_library(std::string_view distribution);

/// The version assumed from a range: the built-in default when the range holds it (pip installs the newest), the
/// newest the range allows below the default, or the range's lower bound above it.
AssumedVersion assume(std::string_view library, const VersionRange& range);

/// A library installed from a URL (`deepspeed @ git+https://github.com/org/fork@commit`): its release is not
/// known, so any up to the default is assumed and a rule that needs the version stays silent (the version is
/// neither known to be older than nor at least any release after the first).
AssumedVersion assume_unknown(std::string_view library);

/// A version set by the project config (`target-versions`) or the command line (`--target-version pkg=ver`).
struct VersionSetting {
  std::string library;  ///< as written (any distribution name launchlint knows, e.g. pytorch-lightning)
  std::string written;  ///< a version (`2.4`, exact) or a specifier set (`>=2.4,<2.6`)
  std::string origin;   ///< shown by `explain`: `launchlint.toml:3:1 (target-versions)`, `--target-version`
};

/// The assumption a setting makes, or nullopt with `error` saying why (unknown library, unreadable version).
std::optional<AssumedVersion> assume_setting(const VersionSetting& s, std::string& error);

class TargetVersions {
 public:
  /// Every known library at its built-in default.
  TargetVersions();

  /// Replaces one library's assumption (the library must be known; returns false otherwise).
  bool set(AssumedVersion v);
  [[nodiscard]] const AssumedVersion& get(std::string_view library) const;
  [[nodiscard]] const std::map<std::string, AssumedVersion, std::less<>>& all() const { return by_library_; }

  /// True when every version assumed for `library` is older than `v`, false when none is, nullopt when the
  /// assumption straddles `v`.
  [[nodiscard]] std::optional<bool> older_than(std::string_view library, const Version& v) const;
  /// True only when the assumed version is known to be at least `v` (shorthand for older_than(...) == false).
  [[nodiscard]] bool at_least(std::string_view library, const Version& v) const;
  /// True only when the assumed version is known to be older than `v`.
  [[nodiscard]] bool before(std::string_view library, const Version& v) const;

 private:
  std::map<std::string, AssumedVersion, std::less<>> by_library_;
};

/// The versions of the run in progress. The driver sets them before resolving launches and running rules (one
/// run at a time; read-only while it runs); outside a run they are the built-in defaults.
const TargetVersions& target_versions();
void set_target_versions(const TargetVersions& versions);

}  // namespace lint::model
