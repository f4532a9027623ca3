#include <catch2/catch.hpp>

#include "tests/support/time_limits.hpp"
#include <cmath>
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
  const lint::source::SourceFile file("config.json", text);
  return lint::parse::read_json(file);
}

}  // namespace

TEST_CASE("JSON values and their kinds", "[parse][json]") {
  const ConfigDocument doc =
      load(R"({"s": "x", "i": -42, "f": 2.5e-3, "t": true, "n": null, "a": [1, {}], "nan": NaN, "inf": -Infinity,)"
           R"( "big": 123456789012345678901234567890, "zero": -0, "e": 1E2})");
  REQUIRE(doc.errors.empty());
  REQUIRE(doc.has_root);
  CHECK(doc.format == lint::parse::Format::Json);
  const Node& root = doc.root;
  REQUIRE(root.is_map());
  CHECK(root.find("s")->kind == NodeKind::String);
  CHECK_FALSE(root.find("s")->plain);
  CHECK(root.find("i")->kind == NodeKind::Int);
  CHECK(root.find("i")->integer == -42);
  CHECK(root.find("i")->text == "-42");
  CHECK(root.find("i")->plain);
  CHECK(root.find("f")->kind == NodeKind::Float);
  CHECK(root.find("f")->number == 2.5e-3);
  CHECK(root.find("f")->text == "2.5e-3");
  CHECK(root.find("t")->kind == NodeKind::Bool);
  CHECK(root.find("t")->boolean);
  CHECK(root.find("n")->kind == NodeKind::Null);
  CHECK(root.find("a")->items.size() == 2);
  CHECK(root.find("a")->items[1].is_map());
  CHECK(std::isnan(root.find("nan")->number));
  CHECK(root.find("inf")->number == -INFINITY);
  // Python ints are unbounded: beyond int64 the text is kept and the kind is Float.
  CHECK(root.find("big")->kind == NodeKind::Float);
  CHECK(root.find("big")->text == "123456789012345678901234567890");
  CHECK(root.find("zero")->kind == NodeKind::Int);
  CHECK(root.find("e")->kind == NodeKind::Float);
  CHECK(root.find("e")->number == 100.0);
}

TEST_CASE("JSON duplicate keys are all kept, the last wins in find()", "[parse][json]") {
  const ConfigDocument doc = load("{\"a\": 1, \"b\": 2, \"a\": 3}");
  REQUIRE(doc.errors.empty());
  REQUIRE(doc.root.entries.size() == 3);
  CHECK(doc.root.entries[0].key.text == "a");
  CHECK(doc.root.entries[2].key.text == "a");
  CHECK(doc.root.find("a")->integer == 3);
  CHECK(span(doc.root.find_entry("a")->key.region) == "1:18-1:21");
}

TEST_CASE("JSON string escapes decode to UTF-8", "[parse][json]") {
  const ConfigDocument doc = load(R"(["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC", "\ud83d\ude00", "\ud800x", "\udc00"])");
  REQUIRE(doc.errors.empty());
  const auto& items = doc.root.items;
  CHECK(items[0].text == "a\"b\\c/d\b\f\n\r\t");
  CHECK(items[1].text == "\xC3\xA9\xE2\x82\xAC");
  CHECK(items[2].text == "\xF0\x9F\x98\x80");
  CHECK(items[3].text == "\xEF\xBF\xBDx");  // a lone surrogate has no UTF-8 form
  CHECK(items[4].text == "\xEF\xBF\xBD");
}

TEST_CASE("JSON positions count code points and survive CRLF and tabs", "[parse][json]") {
  const ConfigDocument doc =
      load("{\r\n\t\"\xD0\xBA\xD0\xBB\xD1\x8E\xD1\x87\": \"\xC3\xA9\",\r\n\t\"n\": [1,\t2]\r\n}");
  REQUIRE(doc.errors.empty());
  const lint::parse::Entry* e = doc.root.find_entry("\xD0\xBA\xD0\xBB\xD1\x8E\xD1\x87");
  REQUIRE(e != nullptr);
  CHECK(span(e->key.region) == "2:2-2:8");
  CHECK(span(e->value.region) == "2:10-2:13");
  CHECK(span(doc.root.find("n")->region) == "3:7-3:13");
  CHECK(span(doc.root.find("n")->items[1].region) == "3:11-3:12");
  CHECK(span(doc.root.region) == "1:1-4:2");
}

TEST_CASE("JSON errors carry Python's message at the exact position", "[parse][json]") {
  struct Case {
    const char* text;
    const char* message;
    const char* at;
  };
  const Case cases[] = {
      {"", "Expecting value", "1:1"},
      {"  \n ", "Expecting value", "2:2"},
      {"{\"a\": 1 \"b\": 2}", "Expecting ',' delimiter", "1:9"},
      {"{\"a\" 1}", "Expecting ':' delimiter", "1:6"},
      {"{'a': 1}", "Expecting property name enclosed in double quotes", "1:2"},
      {"{\"a\": 1,}", "Illegal trailing comma before end of object", "1:8"},
      {"[1, 2,\n]", "Illegal trailing comma before end of array", "1:6"},
      {"[1, 2", "Expecting ',' delimiter", "1:6"},
      {"{\"a\": 1} x", "Extra data", "1:10"},
      {"[1] [2]", "Extra data", "1:5"},
      {"\"abc", "Unterminated string starting here", "1:1"},
      {"[\"a\nb\"]", "Invalid control character in string", "1:4"},
      {"[\"\\x\"]", "Invalid \\escape", "1:3"},
      {"[\"\\u12G4\"]", "Invalid \\uXXXX escape", "1:3"},
      {"[tru]", "Expecting value", "1:2"},
      {"[-]", "Expecting value", "1:2"},
      {"[01]", "Expecting ',' delimiter", "1:3"},
      {"[1.]", "Expecting ',' delimiter", "1:3"},
      {"{\"\xC3\xA9\": x}", "Expecting value", "1:7"},
      {"{\n  // a comment\n  \"a\": 1\n}",
       "Expecting property name enclosed in double quotes (JSON does not allow comments)", "2:3"},
      {"[1 /* c */]", "Expecting ',' delimiter (JSON does not allow comments)", "1:4"},
      {"{\"a\": 1} // end", "Extra data (JSON does not allow comments)", "1:10"},
      {"{\"a\": inf}", "Expecting value", "1:7"},
  };
  for (const Case& c : cases) {
    INFO("input: " << c.text);
    const ConfigDocument doc = load(c.text);
    CHECK_FALSE(doc.has_root);
    REQUIRE(doc.errors.size() == 1);
    CHECK(doc.errors[0].message == c.message);
    CHECK(where(doc) == c.at);
  }
}

TEST_CASE("JSON with a UTF-8 BOM is read; positions keep the BOM as a character", "[parse][json]") {
  const ConfigDocument doc = load("\xEF\xBB\xBF{\"a\": 1}");
  REQUIRE(doc.errors.empty());
  CHECK(doc.root.find("a")->integer == 1);
  CHECK(span(doc.root.find_entry("a")->key.region) == "1:3-1:6");
}

TEST_CASE("JSON that is not UTF-8 or is binary is an error, not a crash", "[parse][json]") {
  const ConfigDocument bad_utf8 = load("{\"a\": \"\xC3\x28\"}");
  CHECK_FALSE(bad_utf8.has_root);
  CHECK(where(bad_utf8) == "1:8");
  CHECK(bad_utf8.errors[0].message.find("invalid UTF-8") != std::string::npos);

  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>((i * 7919) & 0xFF);
  const ConfigDocument garbage = load(binary);
  CHECK_FALSE(garbage.has_root);
  CHECK(garbage.errors.size() == 1);

  const ConfigDocument nul = load(std::string("[1,\0 2]", 7));
  CHECK(where(nul) == "1:4");
}

TEST_CASE("JSON nesting is limited without deep recursion", "[parse][json]") {
  const std::size_t limit = lint::parse::kMaxNestingDepth;
  const std::string ok = std::string(limit, '[') + std::string(limit, ']');
  CHECK(load(ok).errors.empty());

  const std::string too_deep = std::string(limit + 1, '[') + std::string(limit + 1, ']');
  const ConfigDocument deep = load(too_deep);
  CHECK(where(deep) == "1:" + std::to_string(limit + 1));
  CHECK(deep.errors[0].message.find("nesting deeper than") != std::string::npos);

  const std::clock_t start = std::clock();
  const ConfigDocument bomb = load(std::string(100000, '[') + "{\"a\": " + std::string(100000, '{'));
  const double seconds = cpu_seconds_since(start);
  CHECK(bomb.errors.size() == 1);
  CHECK_FALSE(bomb.has_root);
  CHECK(seconds < 1.0 * lint::testing::kTimeFactor);
}

TEST_CASE("JSON: a long single-line document loads in linear time", "[parse][json]") {
  std::string text = "[";
  for (int i = 0; i < 200000; ++i) text += "{\"k\": [1, 2.5, \"\xC3\xA9\"]},";
  text += "0]";
  const std::clock_t start = std::clock();
  const ConfigDocument doc = load(text);
  const double seconds = cpu_seconds_since(start);
  REQUIRE(doc.errors.empty());
  CHECK(doc.root.items.size() == 200001);
  CHECK(doc.root.items[199999].find("k")->items[2].region.begin.column == 199999 * 21 + 17);
  CHECK(seconds < 10.0);  // a guard against quadratic position lookups, which would take hours here
}
