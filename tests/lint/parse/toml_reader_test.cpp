#include <catch2/catch.hpp>

#include "tests/support/time_limits.hpp"
#include <ctime>
#include <string>

#include "lint/parse/readers.hpp"
#include "tests/support/reader_test_support.hpp"

using lint::parse::ConfigDocument;
using lint::parse::Node;
using lint::parse::NodeKind;

namespace {

using lint::testing::cpu_seconds_since;
using lint::testing::span;
using lint::testing::where;

ConfigDocument load(const std::string& text) {
  const lint::source::SourceFile file("job.toml", text);
  return lint::parse::read_toml(file);
}

}  // namespace

TEST_CASE("TOML tables, arrays and scalars", "[parse][toml]") {
  const ConfigDocument doc = load(
      "title = \"run\"\n"
      "[training]\n"
      "steps = 1_000\n"
      "lr = 8e-4\n"
      "mask = 0x1F\n"
      "compile = true\n"
      "started = 1979-05-27T07:32:00Z\n"
      "day = 1979-05-27\n"
      "mesh = [1, 2.5, \"x\", {dp = 8}]\n"
      "[[checkpoint.keep]]\n"
      "step = 10\n"
      "[[checkpoint.keep]]\n"
      "step = 20\n");
  REQUIRE(doc.errors.empty());
  REQUIRE(doc.has_root);
  CHECK(doc.format == lint::parse::Format::Toml);
  const Node& training = *doc.root.find("training");
  CHECK(training.is_map());
  CHECK(training.find("steps")->kind == NodeKind::Int);
  CHECK(training.find("steps")->integer == 1000);
  CHECK(training.find("steps")->text == "1_000");
  CHECK(training.find("steps")->plain);
  CHECK(training.find("lr")->kind == NodeKind::Float);  // TOML floats need no dot
  CHECK(training.find("lr")->number == 8e-4);
  CHECK(training.find("lr")->text == "8e-4");
  CHECK(training.find("mask")->integer == 31);
  CHECK(training.find("compile")->kind == NodeKind::Bool);
  CHECK(training.find("started")->kind == NodeKind::String);
  CHECK(training.find("started")->text == "1979-05-27T07:32:00Z");
  CHECK(training.find("day")->text == "1979-05-27");
  const Node& mesh = *training.find("mesh");
  REQUIRE(mesh.items.size() == 4);
  CHECK(mesh.items[2].text == "x");
  CHECK_FALSE(mesh.items[2].plain);
  CHECK(mesh.items[3].find("dp")->integer == 8);
  const Node& keep = *doc.root.find("checkpoint")->find("keep");
  REQUIRE(keep.items.size() == 2);
  CHECK(keep.items[1].find("step")->integer == 20);
  CHECK(doc.root.find("title")->text == "run");
}

TEST_CASE("TOML entries are in document order with exact regions", "[parse][toml]") {
  const ConfigDocument doc = load("zeta = 1\n\"\xC3\xA9t\xC3\xA9\" = '\xC3\xA9'\nalpha.beta = [1,\t2]\r\nmid = 3\n");
  REQUIRE(doc.errors.empty());
  const auto& entries = doc.root.entries;
  REQUIRE(entries.size() == 4);
  CHECK(entries[0].key.text == "zeta");
  CHECK(entries[1].key.text == "\xC3\xA9t\xC3\xA9");
  CHECK(entries[2].key.text == "alpha");
  CHECK(entries[3].key.text == "mid");
  CHECK(span(entries[0].key.region) == "1:1-1:5");
  CHECK(entries[0].key.plain);
  CHECK(span(entries[1].key.region) == "2:1-2:6");
  CHECK_FALSE(entries[1].key.plain);
  CHECK(span(entries[1].value.region) == "2:9-2:12");
  const Node& beta = *doc.root.find("alpha")->find("beta");
  CHECK(span(beta.region) == "3:14-3:20");
  CHECK(span(beta.items[1].region) == "3:18-3:19");
  CHECK(beta.items[1].region.begin_byte == 41);
  CHECK(span(entries[3].value.region) == "4:7-4:8");
}

TEST_CASE("TOML after a BOM keeps SourceFile's columns", "[parse][toml]") {
  const ConfigDocument doc = load(
      "\xEF\xBB\xBF"
      "a = 1\nb = \"x\"\n");
  REQUIRE(doc.errors.empty());
  CHECK(span(doc.root.find_entry("a")->key.region) == "1:2-1:3");
  CHECK(span(doc.root.find("a")->region) == "1:6-1:7");
  CHECK(doc.root.find("a")->text == "1");
  CHECK(span(doc.root.find("b")->region) == "2:5-2:8");
}

TEST_CASE("TOML syntax errors come from toml++ with positions", "[parse][toml]") {
  const ConfigDocument unterminated = load("a = 1\nb = [1,");
  CHECK_FALSE(unterminated.has_root);
  REQUIRE(unterminated.errors.size() == 1);
  CHECK(where(unterminated) == "2:8");

  const ConfigDocument redefined = load("a = 1\na = 2\n");
  REQUIRE(redefined.errors.size() == 1);
  CHECK(redefined.errors[0].region.begin.line == 2);

  const ConfigDocument after_unicode = load("k = \"\xC3\xA9\xC3\xA9\" x\n");
  REQUIRE(after_unicode.errors.size() == 1);
  CHECK(where(after_unicode) == "1:10");

  const ConfigDocument bom_error = load(
      "\xEF\xBB\xBF"
      "a = ?\n");
  CHECK(where(bom_error) == "1:6");

  CHECK(load("").errors.empty());
  CHECK(load("").has_root);  // an empty TOML document is an empty table
  CHECK(load("# only a comment\n").root.entries.empty());
}

TEST_CASE("TOML: non-ASCII is fine inside strings and comments", "[parse][toml]") {
  const ConfigDocument doc = load(
      "# comment \xC2\xA7 \xE3\x80\x81\n"
      "a = \"\xC2\xA7\"\n"
      "b = '\xC2\xA7'\n"
      "c = \"\"\"\n\xC2\xA7 multi \xE3\x80\x81\n\"\"\"\n"
      "d = '''\xC2\xA7'''\n"
      "\"\xC2\xA7\" = 1 # \xC2\xA7\n"
      "e = \"\"\"first \\\n   ascii then \xC2\xA7\"\"\"\n"
      "f = \"\"\"\\u00e9 \\\\\xC2\xA7\"\"\"\n");
  REQUIRE(doc.errors.empty());
  CHECK(doc.root.find("a")->text == "\xC2\xA7");
  CHECK(doc.root.find("c")->text == "\xC2\xA7 multi \xE3\x80\x81\n");
  CHECK(doc.root.find("e")->text == "first ascii then \xC2\xA7");
  CHECK(doc.root.find("f")->text == "\xC3\xA9 \\\xC2\xA7");
  CHECK(doc.root.find("\xC2\xA7")->integer == 1);
}

// Inputs on which Debian's toml++ 3.3.0 reaches __builtin_unreachable or an assertion
// (marzer/tomlplusplus#190, #295): the guard must turn each into an error before toml++ sees it.
TEST_CASE("TOML: inputs that crash toml++ 3.3 are rejected first", "[parse][toml]") {
  struct Case {
    std::string text;
    const char* message;  // a fragment
    const char* at;
  };
  const Case cases[] = {
      {"\xEF\xBB\xBE", "non-ASCII character outside a string or comment", "1:1"},
      {"\xCC\xAA", "non-ASCII character outside a string or comment", "1:1"},
      {"a = 1 \xC2\xA7", "non-ASCII character outside a string or comment", "1:7"},
      {"\xE3\x80\x81"
       "a = 1\n",
       "non-ASCII character outside a string or comment", "1:1"},
      {"x = 1\n\xE3\x80\x81\n", "non-ASCII character outside a string or comment", "2:1"},
      {"s = \"\"\"\\\n\xC2\xA7\"\"\"\n", "line-ending backslash", "2:1"},
      {"s = \"\"\"\\\n\n   \xC2\xA7\"\"\"\n", "line-ending backslash", "3:4"},
      {"s = \"\"\"\\ \xC2\xA7\"\"\"\n", "line-ending backslash", "1:10"},
      {"s = \"\"\"\\\xC2\xA7\"\"\"\n", "right after a backslash", "1:9"},
      {"[\x01", "control character U+0001", "1:2"},
      {"a = 1\"\xC3\xA9\"", "non-ASCII character outside a string or comment", "1:7"},
      {"a = \"x\"\xC3\xA9", "non-ASCII character outside a string or comment", "1:8"},
      {"a =79-0.b_[{.\"=\xE3\x80\x81\" 7", "non-ASCII character outside a string or comment", "1:16"},
      {"a = true\xC2\xA0", "non-ASCII character outside a string or comment", "1:9"},
      {"a = 1\rb = 2", "carriage return", "1:6"},
      {"a = \"\x7F\"", "control character U+007F", "1:6"},
      {"# \x0B\n", "control character U+000B", "1:3"},
  };
  for (const Case& c : cases) {
    INFO("input: " << c.text);
    const ConfigDocument doc = load(c.text);
    CHECK_FALSE(doc.has_root);
    REQUIRE(doc.errors.size() == 1);
    CHECK_THAT(doc.errors[0].message, Catch::Contains(c.message));
    CHECK(where(doc) == c.at);
  }
  // toml++ itself reports these (no undefined behaviour there).
  CHECK(load("[&").errors.size() == 1);
  CHECK(load("a = \"x\ny\"").errors.size() == 1);
}

TEST_CASE("TOML that is not UTF-8 text is an error", "[parse][toml]") {
  const ConfigDocument bad = load("a = \"caf\xE9\"\n");
  CHECK_FALSE(bad.has_root);
  CHECK(where(bad) == "1:9");
  CHECK_THAT(bad.errors[0].message, Catch::Contains("invalid UTF-8"));

  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>((i * 7919 + 5) & 0xFF);
  CHECK(load(binary).errors.size() == 1);
  CHECK(load(std::string("a = 1\0", 6)).errors.size() == 1);
}

TEST_CASE("TOML nesting is limited before toml++ recurses", "[parse][toml]") {
  const std::size_t limit = lint::parse::kMaxNestingDepth;
  // Root table + arrays: `limit - 1` arrays are `limit` levels.
  CHECK(load("a = " + std::string(limit - 1, '[') + std::string(limit - 1, ']')).errors.empty());
  const ConfigDocument arrays = load("a = " + std::string(limit, '[') + std::string(limit, ']'));
  REQUIRE(arrays.errors.size() == 1);
  CHECK_THAT(arrays.errors[0].message, Catch::Contains("nesting deeper than"));
  CHECK(where(arrays) == "1:" + std::to_string(4 + limit));

  std::string dotted = "a";
  for (std::size_t i = 0; i < limit; ++i) dotted += ".a";
  CHECK(load(dotted + " = 1").errors.size() == 1);

  std::string header = "[a";
  for (std::size_t i = 0; i < limit; ++i) header += ".a";
  CHECK(load(header + "]\nx = 1\n").errors.size() == 1);

  std::string inline_tables = "t = ";
  for (std::size_t i = 0; i < limit; ++i) inline_tables += "{a = ";
  CHECK(load(inline_tables + "1" + std::string(limit, '}')).errors.size() == 1);

  const std::clock_t start = std::clock();
  const ConfigDocument bomb = load("a = " + std::string(100000, '['));
  CHECK(bomb.errors.size() == 1);
  std::string long_key = "a";
  for (int i = 0; i < 100000; ++i) long_key += ".a";
  CHECK(load(long_key + " = 1").errors.size() == 1);
  CHECK(load(std::string(100000, '[')).errors.size() == 1);
  CHECK(cpu_seconds_since(start) < 1.0 * lint::testing::kTimeFactor);
}
