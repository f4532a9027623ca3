// Every fixture under fixtures/<slug>/ is run with only its rule enabled: bad_ cases must yield exactly their
// inline expectations, ok_ cases nothing. Unexpected findings fail as loudly as missing ones.
//
// Each case also has a snapshot of what it reports, tests/snapshots/<slug>/<case>.snap: message, severity, region
// with start and end columns, related locations with their messages. A changed message, figure, severity or region
// fails here; `UPDATE_GOLDEN=1` rewrites the snapshots (and deletes those whose case is gone): review the diff.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include "lint/model/python_calls_read.hpp"
#include "tests/support/fixture_support.hpp"

namespace fs = std::filesystem;

namespace {

/// The fixture cases of one rule: `bad_*` and `ok_*` files and folders (sidecar `.expect` files are not cases).
std::vector<fs::path> cases_of(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".expect") continue;
    if (name.starts_with("bad_") || name.starts_with("ok_")) out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

const fs::path& fixtures_root() {
  static const fs::path root = fs::path(LAUNCHLINT_SOURCE_DIR) / "fixtures";
  return root;
}

/// Runs one case: its findings are its inline expectations, its report its snapshot.
void check_case(const lint::rule::RuleInfo& info, const fs::path& p, bool may_update = true) {
  const std::string name = p.filename().string();
  const bool bad = name.starts_with("bad_");
  const lint::testing::Expectations exp = lint::testing::read_expectations(p);
  std::vector<std::string> codes = {std::string(info.code)};
  codes.insert(codes.end(), exp.extra_select.begin(), exp.extra_select.end());
  std::vector<lint::rule::Diagnostic> raw;
  const auto got = lint::testing::lint_case(p, codes, &raw);
  INFO("expected:\n" << lint::testing::describe(exp.findings) << "got:\n" << lint::testing::describe(got));
  if (bad)
    REQUIRE_FALSE(exp.findings.empty());
  else
    REQUIRE(exp.findings.empty());
  CHECK(got == exp.findings);

  const std::string label = "fixtures/" + std::string(info.slug) + "/" + name;
  const std::string snapshot = lint::testing::render_snapshot(p, label, codes, raw);
  const fs::path snap = lint::testing::snapshot_path(info.slug, name);
  if (may_update && lint::testing::update_golden()) {
    fs::create_directories(snap.parent_path());
    std::ofstream(snap, std::ios::binary) << snapshot;
  }
  INFO("snapshot " << snap.lexically_relative(LAUNCHLINT_SOURCE_DIR).generic_string()
                   << (fs::exists(snap) ? "" : " does not exist") << " (UPDATE_GOLDEN=1 rewrites it; review the diff)");
  CHECK(lint::testing::read_text(snap) == snapshot);
}

/// Whether a case is or holds a Python file.
bool has_python(const fs::path& p) {
  if (p.extension() == ".py") return true;
  if (!fs::is_directory(p)) return false;
  for (const auto& e : fs::recursive_directory_iterator(p)) {
    if (e.path().extension() == ".py") return true;
  }
  return false;
}

/// While it lives, every Python file keeps every call with its arguments (the facts before the filter of
/// lint/model/python_calls_read.hpp).
struct KeepEveryCall {
  std::size_t from = lint::model::set_python_read_calls_only_from(std::numeric_limits<std::size_t>::max());
  KeepEveryCall() = default;
  KeepEveryCall(const KeepEveryCall&) = delete;
  KeepEveryCall& operator=(const KeepEveryCall&) = delete;
  ~KeepEveryCall() { lint::model::set_python_read_calls_only_from(from); }
};

}  // namespace

TEST_CASE("rule fixtures", "[fixtures]") {
  std::size_t cases = 0;
  for (const auto& info : lint::rules::rule_table()) {
    for (const fs::path& p : cases_of(fixtures_root() / std::string(info.slug))) {
      ++cases;
      DYNAMIC_SECTION(info.code << " " << info.slug << "/" << p.filename().string()) {
        check_case(info, p);
      }
    }
  }
  CHECK(cases > 0);
}

// A Python file keeps only the calls something reads (lint/model/python_calls_read.hpp): with every call kept, with
// its arguments, each case that has a Python file still gives the same findings and snapshot, so the filter
// changes nothing a rule sees (a rule that reads a call the list leaves out fails "rule fixtures" above, or here when
// the call is the first of its callee).
TEST_CASE("rule fixtures, every Python call kept", "[fixtures]") {
  const KeepEveryCall every;
  std::size_t cases = 0;
  for (const auto& info : lint::rules::rule_table()) {
    for (const fs::path& p : cases_of(fixtures_root() / std::string(info.slug))) {
      if (!has_python(p)) continue;
      ++cases;
      DYNAMIC_SECTION(info.code << " " << info.slug << "/" << p.filename().string()) {
        check_case(info, p, false);
      }
    }
  }
  CHECK(cases > 0);
}

// A snapshot whose case was renamed or deleted would never be compared again: it fails until removed.
TEST_CASE("rule snapshots belong to a fixture case", "[fixtures]") {
  std::set<fs::path> expected;
  for (const auto& info : lint::rules::rule_table()) {
    for (const fs::path& p : cases_of(fixtures_root() / std::string(info.slug))) {
      expected.insert(lint::testing::snapshot_path(info.slug, p.filename().string()));
    }
  }
  const fs::path root = fs::path(LAUNCHLINT_SOURCE_DIR) / "tests" / "snapshots";
  REQUIRE(fs::is_directory(root));
  std::vector<fs::path> orphans;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && expected.count(e.path()) == 0) orphans.push_back(e.path());
  }
  if (lint::testing::update_golden()) {
    for (const fs::path& o : orphans) fs::remove(o);
    orphans.clear();
    std::vector<fs::path> empty_dirs;
    for (const auto& e : fs::directory_iterator(root)) {
      if (e.is_directory() && fs::is_empty(e.path())) empty_dirs.push_back(e.path());
    }
    for (const fs::path& d : empty_dirs) fs::remove(d);
  }
  std::string listed;
  for (const fs::path& o : orphans)
    listed += "  " + o.lexically_relative(LAUNCHLINT_SOURCE_DIR).generic_string() + "\n";
  INFO("snapshots without a fixture case (remove them, or run with UPDATE_GOLDEN=1):\n" << listed);
  CHECK(orphans.empty());
  CHECK(expected.size() > 0);
}

// The same for the real-world cases (tests/realworld/, every rule): the report is the same whether their Python
// files keep every call or only those something reads.
TEST_CASE("real-world cases, every Python call kept", "[fixtures]") {
  std::vector<std::string> codes;
  for (const auto& info : lint::rules::rule_table()) codes.emplace_back(info.code);
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(fs::path(LAUNCHLINT_SOURCE_DIR) / "tests" / "realworld")) {
    if (e.is_directory() && has_python(e.path())) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  REQUIRE_FALSE(dirs.empty());
  for (const fs::path& dir : dirs) {
    DYNAMIC_SECTION(dir.filename().string()) {
      const std::string label = "tests/realworld/" + dir.filename().string();
      std::vector<lint::rule::Diagnostic> raw;
      lint::testing::lint_case(dir, codes, &raw);
      const std::string expected = lint::testing::render_snapshot(dir, label, codes, raw);
      {
        const KeepEveryCall every;
        lint::testing::lint_case(dir, codes, &raw);
      }
      CHECK(lint::testing::render_snapshot(dir, label, codes, raw) == expected);
    }
  }
}
