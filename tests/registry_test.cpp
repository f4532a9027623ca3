// rules.def, rule sources, doc pages and fixture folders agree with each other.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "tests/support/fixture_support.hpp"

namespace fs = std::filesystem;

namespace {
const std::map<std::string, std::string> kBands = {{"input", "LL"},          {"yaml", "YML"},   {"accelerate", "ACC"},
                                                   {"fsdp", "FSDP"},         {"hf", "HF"},      {"deepspeed", "DS"},
                                                   {"torchtitan", "TT"},     {"lightning", "PL"}, {"memory", "MEM"},
                                                   {"quantization", "QNT"}, {"model", "MDL"}, {"launch", "LCH"}};
}

TEST_CASE("registry, sources, docs and fixtures are consistent", "[registry]") {
  const fs::path src(LAUNCHLINT_SOURCE_DIR);
  const auto& table = lint::rules::rule_table();
  REQUIRE_FALSE(table.empty());
  std::set<std::string> codes;
  std::set<std::string> slugs;
  std::string previous;
  for (const auto& r : table) {
    const std::string code(r.code);
    const std::string slug(r.slug);
    const std::string area(r.area);
    INFO(code << " " << slug);
    CHECK(codes.insert(code).second);
    CHECK(slugs.insert(slug).second);
    CHECK(std::regex_match(slug, std::regex("[a-z0-9]+(-[a-z0-9]+)*")));
    REQUIRE(kBands.count(area) == 1);
    CHECK(std::regex_match(code, std::regex(kBands.at(area) + "[0-9]{3}")));
    CHECK(fs::is_regular_file(src / "rules" / area / (slug + ".cpp")));
    CHECK(fs::is_regular_file(src / "rules" / area / (slug + ".md")));
    CHECK(r.doc.starts_with("# " + code + " " + slug + "\n"));
    CHECK(r.summary().ends_with("."));
    for (const char* h : {"## Problematic config", "## Correct config", "## Rationale", "## Exceptions", "## Options",
                          "## References"}) {
      CHECK(r.doc.find(std::string("\n") + h + "\n") != std::string_view::npos);
    }
    bool has_bad = false;
    bool has_ok = false;
    const fs::path fx = src / "fixtures" / slug;
    if (fs::is_directory(fx)) {
      for (const auto& e : fs::directory_iterator(fx)) {
        const std::string n = e.path().filename().string();
        has_bad |= n.starts_with("bad_");
        has_ok |= n.starts_with("ok_");
      }
    }
    CHECK(has_bad);
    CHECK(has_ok);
  }
  // No orphans: every rule file, doc and fixture folder belongs to a registered slug.
  for (const auto& e : fs::recursive_directory_iterator(src / "rules")) {
    const auto ext = e.path().extension();
    if (e.path().parent_path() == src / "rules") continue;
    if (ext == ".cpp" || ext == ".md") {
      INFO(e.path());
      CHECK(slugs.count(e.path().stem().string()) == 1);
    }
  }
  for (const auto& e : fs::directory_iterator(src / "fixtures")) {
    INFO(e.path());
    CHECK(slugs.count(e.path().filename().string()) == 1);
  }
}
