// Each doc page's examples run: the Problematic example reports exactly its rule's code, the Correct example
// reports nothing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>

#include "tests/support/fixture_support.hpp"

namespace fs = std::filesystem;

namespace {

struct Block {
  std::string lang;
  std::string name;  // optional file name after the language: ```yaml accelerate.yaml
  std::string text;
};

/// The code blocks of one `## Section` of a Markdown page.
std::vector<Block> blocks_of(std::string_view doc, std::string_view heading) {
  std::vector<Block> out;
  const auto start = doc.find(std::string("\n## ") + std::string(heading) + "\n");
  if (start == std::string_view::npos) return out;
  auto end = doc.find("\n## ", start + 4);
  const std::string_view section = doc.substr(start, end == std::string_view::npos ? doc.size() - start : end - start);
  std::size_t pos = 0;
  while ((pos = section.find("```", pos)) != std::string_view::npos) {
    const auto eol = section.find('\n', pos);
    std::string info(section.substr(pos + 3, eol - pos - 3));
    const auto close = section.find("\n```", eol);
    if (close == std::string_view::npos) break;
    Block b;
    const auto space = info.find(' ');
    b.lang = info.substr(0, space);
    if (space != std::string::npos) b.name = info.substr(space + 1);
    b.text = std::string(section.substr(eol + 1, close - eol));
    out.push_back(b);
    pos = close + 4;
  }
  return out;
}

std::string extension(const std::string& lang) {
  if (lang == "yaml") return ".yaml";
  if (lang == "json") return ".json";
  if (lang == "toml") return ".toml";
  if (lang == "python") return ".py";
  if (lang == "bash" || lang == "sh") return ".sh";
  return "";
}

/// Writes the runnable blocks into a fresh folder; returns false when none is runnable.
bool materialise(const std::vector<Block>& blocks, const fs::path& dir) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  bool any = false;
  int n = 0;
  for (const Block& b : blocks) {
    const std::string ext = extension(b.lang);
    // A named text block is a file too (a requirements.txt the rule reads the pins of).
    if (ext.empty() && !(b.lang == "text" && !b.name.empty())) continue;
    const std::string name = b.name.empty() ? "example" + std::to_string(n++) + ext : b.name;
    fs::create_directories((dir / name).parent_path());
    std::ofstream(dir / name, std::ios::binary) << b.text;
    any = true;
  }
  return any;
}

}  // namespace

TEST_CASE("rule doc examples", "[docs]") {
  const fs::path tmp = fs::temp_directory_path() / ("launchlint-docs-" + std::to_string(::getpid()));
  for (const auto& r : lint::rules::rule_table()) {
    DYNAMIC_SECTION(r.code << " " << r.slug) {
      const std::string code(r.code);
      const auto bad = blocks_of(r.doc, "Problematic config");
      const auto good = blocks_of(r.doc, "Correct config");
      REQUIRE_FALSE(bad.empty());
      REQUIRE_FALSE(good.empty());
      // An example may enable more rules with `# fixture-select: CODE` (LL004 needs a finding to suppress).
      auto with_extra = [&](const fs::path& dir) {
        std::vector<std::string> codes = {code};
        for (const auto& c : lint::testing::read_expectations(dir).extra_select) codes.push_back(c);
        return codes;
      };
      // Exact codes: the Problematic example reports this rule's code and nothing else (not a parse error, not a
      // finding of a rule it enables), the Correct example reports nothing at all.
      if (materialise(bad, tmp / "bad")) {
        const auto got = lint::testing::lint_case(tmp / "bad", with_extra(tmp / "bad"));
        INFO("problematic example produced:\n" << lint::testing::describe(got));
        std::set<std::string> codes;
        for (const auto& f : got) codes.insert(std::get<2>(f));
        CHECK(codes == std::set<std::string>{code});
      }
      if (materialise(good, tmp / "good")) {
        const auto got = lint::testing::lint_case(tmp / "good", with_extra(tmp / "good"));
        INFO("correct example produced:\n" << lint::testing::describe(got));
        CHECK(got.empty());
      }
    }
  }
  fs::remove_all(tmp);
}
