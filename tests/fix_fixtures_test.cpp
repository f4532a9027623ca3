// Every bad fixture with a fix: `--fix --unsafe-fixes` (on a copy) leaves a file on which the fixed findings are
// gone, the others remain, and every line no fix edits is byte-identical and in place.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "lint/fix/fix.hpp"
#include "tests/support/fixture_support.hpp"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t nl = text.find('\n', at);
    const std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

/// Indices of the lines of `a` that an LCS with `b` keeps (an independent check: no knowledge of the edits).
std::set<std::size_t> kept_lines(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const std::size_t n = a.size();
  const std::size_t m = b.size();
  std::vector<std::vector<std::uint32_t>> t(n + 1, std::vector<std::uint32_t>(m + 1, 0));
  for (std::size_t i = n; i-- > 0;)
    for (std::size_t j = m; j-- > 0;) t[i][j] = a[i] == b[j] ? t[i + 1][j + 1] + 1 : std::max(t[i + 1][j], t[i][j + 1]);
  std::set<std::size_t> kept;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n && j < m) {
    if (a[i] == b[j]) {
      kept.insert(i);
      ++i;
      ++j;
    } else if (t[i + 1][j] >= t[i][j + 1]) {
      ++i;
    } else {
      ++j;
    }
  }
  return kept;
}

lint::driver::RunOptions options_for(const fs::path& root, const std::vector<std::string>& codes) {
  lint::driver::RunOptions opts;
  opts.paths = {root.generic_string()};
  opts.selection.select = codes;
  opts.jobs = 1;
  return opts;
}

}  // namespace

TEST_CASE("fixes of bad fixtures", "[fixes]") {
  const fs::path root = fs::path(LAUNCHLINT_SOURCE_DIR) / "fixtures";
  const fs::path scratch = fs::temp_directory_path() / ("launchlint-fix-test-" + std::to_string(::getpid()));
  std::set<std::string> fixed_codes;
  std::size_t cases = 0;
  for (const auto& info : lint::rules::rule_table()) {
    const fs::path dir = root / std::string(info.slug);
    if (!fs::is_directory(dir)) continue;
    for (const auto& entry : fs::directory_iterator(dir)) {
      const std::string name = entry.path().filename().string();
      if (!name.starts_with("bad_") || name.ends_with(".expect")) continue;
      const lint::testing::Expectations exp = lint::testing::read_expectations(entry.path());
      std::vector<std::string> codes = {std::string(info.code)};
      codes.insert(codes.end(), exp.extra_select.begin(), exp.extra_select.end());

      // A copy of the case, so the fix can be written.
      fs::remove_all(scratch);
      fs::create_directories(scratch);
      const fs::path copy = scratch / name;
      fs::copy(entry.path(), copy, fs::copy_options::recursive);
      const lint::driver::RunResult before = lint::driver::run(lint::rules::rule_table(), options_for(copy, codes));
      std::size_t fixable = 0;
      std::size_t unfixable = 0;
      std::map<std::string, std::set<std::size_t>> touched;  // path -> 0-based lines an edit touches
      for (const auto& d : before.diagnostics) {
        if (d.code != info.code) continue;
        if (!d.fix) {
          ++unfixable;
          continue;
        }
        ++fixable;
        const auto& src = *before.sources.at(d.fix->edits.front().path);
        for (const auto& e : d.fix->edits) {
          const auto first = src.position_at(e.begin).line;
          const auto last = src.position_at(e.end > e.begin ? e.end - 1 : e.begin).line;
          for (auto l = first; l <= last; ++l) touched[e.path].insert(l - 1);
        }
      }
      if (fixable == 0) continue;
      ++cases;
      fixed_codes.insert(std::string(info.code));
      DYNAMIC_SECTION(info.code << " " << info.slug << "/" << name) {
        const auto outcome = lint::fix::fix_until_stable(lint::rules::rule_table(), options_for(copy, codes), true);
        REQUIRE_FALSE(outcome.changes.empty());
        std::map<std::string, std::string> originals;
        for (const auto& c : outcome.changes) {
          originals[c.path] = slurp(c.path);
          std::string error;
          INFO(error);
          REQUIRE(lint::fix::write_change(c, error));
        }
        // The rule no longer fires where it was fixed; the findings without a fix remain.
        const lint::driver::RunResult after = lint::driver::run(lint::rules::rule_table(), options_for(copy, codes));
        std::size_t remaining = 0;
        for (const auto& d : after.diagnostics) remaining += d.code == info.code ? 1 : 0;
        CHECK(remaining == unfixable);
        // Every line that no edit touched is still there, byte for byte, in order.
        for (const auto& [path, original] : originals) {
          const std::string now = slurp(path);
          CHECK(now != original);
          const auto a = lines_of(original);
          const auto kept = kept_lines(a, lines_of(now));
          for (std::size_t i = 0; i < a.size(); ++i) {
            if (touched[path].count(i) != 0) continue;
            INFO(path << " line " << i + 1 << ": " << a[i]);
            CHECK(kept.count(i) == 1);
          }
          // No temporary file is left next to it.
          for (const auto& f : fs::directory_iterator(fs::path(path).parent_path()))
            CHECK(f.path().filename().string().find(".launchlint-") == std::string::npos);
        }
      }
    }
  }
  fs::remove_all(scratch);
  // The fixes the engine promises: renames, YAML scalars, enums, FSDP2 form, batch size, duplicates.
  for (const char* code : {"ACC001", "ACC008", "YML001", "YML002", "YML003", "FSDP004", "ACC003", "FSDP003", "DS001"})
    CHECK(fixed_codes.count(code) == 1);
  CHECK(cases > 0);
}

TEST_CASE("unified diff of a fix", "[fixes]") {
  const std::string before = "a: 1\nb: 1e8  # keep\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\nh: 8\ni: 9\nj: 10\n";
  const std::string after = "a: 1\nb: 100000000  # keep\nc: 3\nd: 4\ne: 5\nf: 6\ng: 7\nh: 8\ni: 9\n";
  CHECK(lint::fix::unified_diff("x.yaml", before, after) ==
        "--- a/x.yaml\n+++ b/x.yaml\n@@ -1,5 +1,5 @@\n a: 1\n-b: 1e8  # keep\n+b: 100000000  # keep\n c: 3\n d: 4\n"
        " e: 5\n@@ -7,4 +7,3 @@\n g: 7\n h: 8\n i: 9\n-j: 10\n");
  CHECK(lint::fix::unified_diff("x.yaml", before, before).empty());
}

TEST_CASE("a fix is not written over a file that changed", "[fixes]") {
  const fs::path p = fs::temp_directory_path() / ("launchlint-fix-stale-" + std::to_string(::getpid()) + ".yaml");
  { std::ofstream(p, std::ios::binary) << "a: 2\n"; }
  lint::fix::FileChange c{p.string(), "a: 1\n", "a: 3\n", {}};
  std::string error;
  CHECK_FALSE(lint::fix::write_change(c, error));
  CHECK(error.find("changed since") != std::string::npos);
  CHECK(slurp(p) == "a: 2\n");
  c.before = "a: 2\n";
  CHECK(lint::fix::write_change(c, error));
  CHECK(slurp(p) == "a: 3\n");
  fs::remove(p);
}
