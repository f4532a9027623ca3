#include "lint/model/versions.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "lint/config/suggest.hpp"

namespace lint::model {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return s;
}

/// PEP 503 normalisation: lower case, runs of `-`, `_` and `.` become one `-`.
std::string normalise_name(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '-' || c == '_' || c == '.') {
      if (!out.empty() && out.back() != '-') out += '-';
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

/// The release parts of a version and how many were written (for `~=` and `.*`).
struct Release {
  Version v;
  int parts = 0;
  bool wildcard = false;  ///< ends in `.*`
};

std::optional<Release> parse_release(std::string_view text) {
  text = trim(text);
  if (!text.empty() && (text.front() == 'v' || text.front() == 'V')) text.remove_prefix(1);
  const auto eq = text.find('!');  // epoch
  if (eq != std::string_view::npos) text.remove_prefix(eq + 1);
  Release r;
  int parts[3] = {0, 0, 0};
  std::size_t i = 0;
  while (true) {
    if (text.substr(i).starts_with("*")) {
      if (r.parts == 0) return std::nullopt;
      r.wildcard = true;
      i += 1;
      break;
    }
    int n = 0;
    const char* b = text.data() + i;
    const auto [p, ec] = std::from_chars(b, text.data() + text.size(), n);
    if (ec != std::errc() || p == b) return std::nullopt;
    if (r.parts < 3) parts[r.parts] = n;
    ++r.parts;
    i = static_cast<std::size_t>(p - text.data());
    if (i < text.size() && text[i] == '.' && i + 1 < text.size() &&
        (std::isdigit(static_cast<unsigned char>(text[i + 1])) != 0 || text[i + 1] == '*')) {
      ++i;
      continue;
    }
    break;
  }
  // What may follow the release: pre/post/dev parts (`rc1`, `.post1`, `a2`, `.dev0`) and a local part (`+cu124`).
  const std::string_view rest = text.substr(i);
  if (!rest.empty() && !r.wildcard) {
    const char c = rest.front();
    if (c != '+' && c != '.' && c != '-' && c != '_' && std::isalpha(static_cast<unsigned char>(c)) == 0)
      return std::nullopt;
  } else if (!rest.empty()) {
    return std::nullopt;
  }
  r.v = Version{parts[0], parts[1], parts[2]};
  return r;
}

/// The version after the last written part is bumped: 2.4 -> 2.5, 2.4.1 -> 2.4.2 (for `==2.4.*`) or, for `~=`,
/// the part before it: ~=2.4 -> 3.0, ~=2.4.1 -> 2.5.
Version bump(const Version& v, int part) {
  if (part <= 0) return Version{v.major + 1, 0, 0};
  if (part == 1) return Version{v.major, v.minor + 1, 0};
  return Version{v.major, v.minor, v.patch + 1};
}

void raise_low(VersionRange& r, const Version& v, bool inclusive) {
  if (!r.low || v > *r.low || (v == *r.low && !inclusive)) {
    r.low = v;
    r.low_inclusive = inclusive;
  }
}

void lower_high(VersionRange& r, const Version& v, bool inclusive) {
  if (!r.high || v < *r.high || (v == *r.high && !inclusive)) {
    r.high = v;
    r.high_inclusive = inclusive;
  }
}

}  // namespace

std::string Version::str() const {
  std::string s = std::to_string(major) + "." + std::to_string(minor);
  if (patch != 0) s += "." + std::to_string(patch);
  return s;
}

std::optional<Version> parse_version(std::string_view text) {
  auto r = parse_release(text);
  if (!r || r->wildcard) return std::nullopt;
  return r->v;
}

bool VersionRange::contains(const Version& v) const {
  if (low && (v < *low || (v == *low && !low_inclusive))) return false;
  if (high && (v > *high || (v == *high && !high_inclusive))) return false;
  return true;
}

bool VersionRange::empty() const {
  if (!low || !high) return false;
  return *low > *high || (*low == *high && !(low_inclusive && high_inclusive));
}

std::optional<VersionRange> parse_specifiers(std::string_view spec) {
  VersionRange range;
  spec = trim(spec);
  if (spec.empty()) return range;
  while (!spec.empty()) {
    const auto comma = spec.find(',');
    std::string_view clause = trim(spec.substr(0, comma));
    spec = comma == std::string_view::npos ? std::string_view{} : spec.substr(comma + 1);
    if (clause.empty()) continue;
    std::string_view op;
    for (std::string_view o : {"===", "~=", "==", "!=", "<=", ">=", "<", ">"}) {
      if (clause.starts_with(o)) {
        op = o;
        break;
      }
    }
    if (op.empty()) return std::nullopt;
    const auto rel = parse_release(clause.substr(op.size()));
    if (!rel) return std::nullopt;
    if (rel->wildcard && op != "==" && op != "!=") return std::nullopt;
    const Version& v = rel->v;
    if (op == "!=") continue;
    if (op == "==" || op == "===") {
      if (rel->wildcard) {
        raise_low(range, v, true);
        lower_high(range, bump(v, rel->parts - 1), false);
      } else {
        raise_low(range, v, true);
        lower_high(range, v, true);
      }
    } else if (op == "~=") {
      if (rel->parts < 2) return std::nullopt;
      raise_low(range, v, true);
      lower_high(range, bump(v, rel->parts - 2), false);
    } else if (op == ">=") {
      raise_low(range, v, true);
    } else if (op == ">") {
      raise_low(range, v, false);
    } else if (op == "<=") {
      lower_high(range, v, true);
    } else {
      lower_high(range, v, false);
    }
  }
  return range;
}

std::string AssumedVersion::display() const {
  if (exact()) return low.str();
  if (low == Version{} && high_inclusive) return "unknown (up to " + high.str() + ")";
  // [low, high): the newest release below `high` (not known exactly).
  if (low.major == high.major && low.minor + 1 == high.minor && high.patch == 0) {
    return std::to_string(low.major) + "." + std::to_string(low.minor) + ".x (" +
           (low.patch != 0 ? "at least " + low.str() + ", " : std::string()) + "below " + high.str() + ")";
  }
  return "from " + low.str() + " to below " + high.str();
}

const std::vector<KnownLibrary>& known_libraries() {
  // docs/sources.md: the versions the rules' line numbers refer to.
  static const std::vector<KnownLibrary> kLibraries = {
      {"torch", "2.11.0", "pytorch"},
      {"accelerate", "1.15.0", ""},
      {"transformers", "5.17.0", ""},
      {"peft", "0.20.0", ""},
      {"deepspeed", "0.19.5", ""},
      {"torchtitan", "0.2.2", ""},
      {"lightning", "2.6.2", "pytorch-lightning"},
      {"trl", "1.10.0", ""},
      {"llamafactory", "0.9.5", "llmtuner llama-factory"},
  };
  return kLibraries;
}

std::string canonical_library(std::string_view distribution) {
  const std::string n = normalise_name(distribution);
  for (const KnownLibrary& k : known_libraries()) {
    if (n == k.name) return std::string(k.name);
    std::string_view aliases = k.aliases;
    while (!aliases.empty()) {
      const auto sp = aliases.find(' ');
      if (aliases.substr(0, sp) == n) return std::string(k.name);
      aliases = sp == std::string_view::npos ? std::string_view{} : aliases.substr(sp + 1);
    }
  }
  return {};
}

namespace {

Version default_of(std::string_view library) {
  for (const KnownLibrary& k : known_libraries()) {
    if (k.name == library) return *parse_version(k.default_version);
  }
  return {};
}

}  // namespace

AssumedVersion assume_unknown(std::string_view library) {
  AssumedVersion a;
  a.library = std::string(library);
  a.is_default = false;
  a.low = Version{};
  a.high = default_of(library);
  a.high_inclusive = true;
  return a;
}

AssumedVersion assume(std::string_view library, const VersionRange& range) {
  AssumedVersion a;
  a.library = std::string(library);
  a.is_default = false;
  const Version def = default_of(library);
  if (range.contains(def)) {
    a.low = a.high = def;
    a.high_inclusive = true;
  } else if (range.high && (*range.high < def || (*range.high == def && !range.high_inclusive))) {
    // Every allowed version is older than the default: the newest the range allows.
    a.high = *range.high;
    a.high_inclusive = range.high_inclusive;
    if (range.high_inclusive) {
      a.low = *range.high;
    } else {
      // Below X.Y.0 the newest is an X.(Y-1) release (below X.Y.Z an X.Y release); not older than the lower bound.
      Version floor = range.high->patch != 0   ? Version{range.high->major, range.high->minor, 0}
                      : range.high->minor != 0 ? Version{range.high->major, range.high->minor - 1, 0}
                                               : range.low.value_or(Version{});
      if (range.low && *range.low > floor) floor = *range.low;
      a.low = floor;
    }
  } else {
    // Every allowed version is newer than the default: its lowest (newer releases than the knowledge are read
    // with the knowledge of the default).
    a.low = a.high = range.low.value_or(def);
    a.high_inclusive = true;
  }
  return a;
}

std::optional<AssumedVersion> assume_setting(const VersionSetting& s, std::string& error) {
  const std::string lib = canonical_library(s.library);
  if (lib.empty()) {
    std::string names;
    for (const KnownLibrary& k : known_libraries()) names += (names.empty() ? "" : ", ") + std::string(k.name);
    error = "unknown library '" + config::shown_value(s.library) + "' (versions are known for " + names + ")";
    return std::nullopt;
  }
  const std::string_view w = trim(s.written);
  std::optional<VersionRange> range;
  if (auto v = parse_version(w)) {
    range = VersionRange{*v, true, *v, true};
  } else {
    range = parse_specifiers(w);
  }
  if (!range || range->empty() || (!range->low && !range->high)) {
    error = "'" + config::shown_value(s.written) + "' is not a version (e.g. \"2.4\", \"2.4.1\") or a version range (\">=2.4,<2.6\")";
    return std::nullopt;
  }
  AssumedVersion a = assume(lib, *range);
  a.written = std::string(w);
  a.origin = s.origin;
  return a;
}

TargetVersions::TargetVersions() {
  for (const KnownLibrary& k : known_libraries()) {
    AssumedVersion a;
    a.library = std::string(k.name);
    a.written = std::string(k.default_version);
    a.origin = "built-in default (docs/sources.md)";
    a.low = a.high = *parse_version(k.default_version);
    by_library_[a.library] = a;
  }
}

bool TargetVersions::set(AssumedVersion v) {
  auto it = by_library_.find(v.library);
  if (it == by_library_.end()) return false;
  it->second = std::move(v);
  return true;
}

const AssumedVersion& TargetVersions::get(std::string_view library) const {
  static const AssumedVersion kNone;
  auto it = by_library_.find(library);
  return it == by_library_.end() ? kNone : it->second;
}

std::optional<bool> TargetVersions::older_than(std::string_view library, const Version& v) const {
  auto it = by_library_.find(library);
  if (it == by_library_.end()) return std::nullopt;
  const AssumedVersion& a = it->second;
  if (a.high < v || (a.high == v && !a.high_inclusive)) return true;
  if (a.low >= v) return false;
  return std::nullopt;
}

bool TargetVersions::at_least(std::string_view library, const Version& v) const {
  return older_than(library, v) == false;
}

bool TargetVersions::before(std::string_view library, const Version& v) const {
  return older_than(library, v) == true;
}

namespace {
TargetVersions& current() {
  static TargetVersions versions;
  return versions;
}
}  // namespace

const TargetVersions& target_versions() {
  return current();
}
void set_target_versions(const TargetVersions& versions) {
  current() = versions;
}

}  // namespace lint::model
