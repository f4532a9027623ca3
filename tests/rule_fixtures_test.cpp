// Every fixture under fixtures/<slug>/ is run with only its rule enabled: bad_ cases must yield exactly their
// inline expectations, ok_ cases nothing. Unexpected findings fail as loudly as missing ones.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/fixture_support.hpp"

namespace fs = std::filesystem;

TEST_CASE("rule fixtures", "[fixtures]") {
  const fs::path root = fs::path(LAUNCHLINT_SOURCE_DIR) / "fixtures";
  std::size_t cases = 0;
  for (const auto& info : lint::rules::rule_table()) {
    const fs::path dir = root / std::string(info.slug);
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(dir)) {
      if (e.path().extension() == ".expect") continue;
      entries.push_back(e.path());
    }
    std::sort(entries.begin(), entries.end());
    for (const fs::path& p : entries) {
      const std::string name = p.filename().string();
      const bool bad = name.starts_with("bad_");
      if (!bad && !name.starts_with("ok_")) continue;
      ++cases;
      DYNAMIC_SECTION(info.code << " " << info.slug << "/" << name) {
        const lint::testing::Expectations exp = lint::testing::read_expectations(p);
        std::vector<std::string> codes = {std::string(info.code)};
        codes.insert(codes.end(), exp.extra_select.begin(), exp.extra_select.end());
        const auto got = lint::testing::lint_case(p, codes);
        INFO("expected:\n" << lint::testing::describe(exp.findings) << "got:\n" << lint::testing::describe(got));
        if (bad) REQUIRE_FALSE(exp.findings.empty());
        else REQUIRE(exp.findings.empty());
        CHECK(got == exp.findings);
      }
    }
  }
  CHECK(cases > 0);
}
