#include <catch2/catch.hpp>
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
  const lint::source::SourceFile file("config.yaml", text);
  return lint::parse::read_yaml(file);
}

// The value of `v: <scalar>`.
Node value_of(const std::string& scalar) {
  const ConfigDocument doc = load("v: " + scalar + "\n");
  INFO("scalar: " << scalar);
  REQUIRE(doc.errors.empty());
  REQUIRE(doc.root.find("v") != nullptr);
  return *doc.root.find("v");
}

bool seconds_below(double limit, std::clock_t start) {
  return cpu_seconds_since(start) < limit;
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

}  // namespace

TEST_CASE("YAML plain scalars get PyYAML's YAML 1.1 types", "[parse][yaml]") {
  struct Case {
    const char* scalar;
    NodeKind kind;
    double number;  // Int and Float: the value; Bool: 1 or 0
  };
  const Case cases[] = {
      {"1e-5", NodeKind::String, 0},   // no dot: not a float for PyYAML
      {"5e8", NodeKind::String, 0},    //
      {"1e8", NodeKind::String, 0},    //
      {"1.0e5", NodeKind::String, 0},  // the exponent needs a sign
      {"1.0e-5", NodeKind::Float, 1.0e-5},
      {"1.0e+5", NodeKind::Float, 1.0e5},
      {"1.", NodeKind::Float, 1.0},
      {".5", NodeKind::Float, 0.5},
      {"-.5", NodeKind::String, 0},  // the `.5` form takes no sign
      {"1_000.0", NodeKind::Float, 1000.0},
      {"+.inf", NodeKind::Float, INFINITY},
      {"-.Inf", NodeKind::Float, -INFINITY},
      {".Nan", NodeKind::String, 0},
      {"1:30.5", NodeKind::Float, 90.5},
      {"0x1F", NodeKind::Int, 31},
      {"-0x_1", NodeKind::Int, -1},
      {"1_000", NodeKind::Int, 1000},
      {"017", NodeKind::Int, 15},  // octal
      {"08", NodeKind::String, 0},
      {"0o17", NodeKind::String, 0},
      {"0b1010", NodeKind::Int, 10},
      {"+0", NodeKind::Int, 0},
      {"1:30", NodeKind::Int, 90},  // base 60
      {"190:20:30", NodeKind::Int, 685230},
      {"1:60", NodeKind::String, 0},
      {"off", NodeKind::Bool, 0},
      {"On", NodeKind::Bool, 1},
      {"NO", NodeKind::Bool, 0},
      {"yes", NodeKind::Bool, 1},
      {"TRUE", NodeKind::Bool, 1},
      {"y", NodeKind::String, 0},
      {"n", NodeKind::String, 0},
      {"nO", NodeKind::String, 0},
      {"~", NodeKind::Null, 0},
      {"null", NodeKind::Null, 0},
      {"NULL", NodeKind::Null, 0},
      {"nULL", NodeKind::String, 0},
      {"2024-01-01", NodeKind::String, 0},  // a timestamp: kept as text
      {"FULL_SHARD", NodeKind::String, 0},
  };
  for (const Case& c : cases) {
    INFO("scalar: " << c.scalar);
    const Node v = value_of(c.scalar);
    CHECK(v.kind == c.kind);
    CHECK(v.text == c.scalar);
    CHECK(v.plain);
    if (c.kind == NodeKind::Int) {
      CHECK(v.integer == static_cast<std::int64_t>(c.number));
      CHECK(v.number == c.number);
    }
    if (c.kind == NodeKind::Float) CHECK(v.number == c.number);
    if (c.kind == NodeKind::Bool) CHECK(v.boolean == (c.number != 0));
  }
  CHECK(value_of("").kind == NodeKind::Null);
  CHECK(value_of("123456789012345678901234567890").kind == NodeKind::Float);  // beyond int64
}

TEST_CASE("YAML quoted and block scalars are strings", "[parse][yaml]") {
  const ConfigDocument doc = load("a: 'no'\nb: \"1.0e-5\"\nc: |\n  true\nd: >-\n  42\n");
  REQUIRE(doc.errors.empty());
  for (const char* key : {"a", "b", "c", "d"}) {
    INFO(key);
    CHECK(doc.root.find(key)->kind == NodeKind::String);
    CHECK_FALSE(doc.root.find(key)->plain);
  }
  CHECK(doc.root.find("a")->text == "no");
  CHECK(doc.root.find("c")->text == "true\n");
  CHECK(doc.root.find("d")->text == "42");
}

TEST_CASE("YAML duplicate keys are kept in order", "[parse][yaml]") {
  const ConfigDocument doc = load("mixed_precision: bf16\nnum_processes: 8\nmixed_precision: 'no'\n");
  REQUIRE(doc.errors.empty());
  REQUIRE(doc.root.entries.size() == 3);
  CHECK(doc.root.entries[0].key.text == "mixed_precision");
  CHECK(doc.root.entries[2].key.text == "mixed_precision");
  CHECK(doc.root.find("mixed_precision")->text == "no");
  CHECK(span(doc.root.find_entry("mixed_precision")->key.region) == "3:1-3:16");
  CHECK(span(doc.root.entries[0].key.region) == "1:1-1:16");
  // A non-string key keeps its source text.
  const ConfigDocument numeric = load("1: a\nnull: b\n");
  CHECK(numeric.root.entries[0].key.kind == NodeKind::Int);
  CHECK(numeric.root.entries[0].key.text == "1");
  CHECK(numeric.root.entries[1].key.kind == NodeKind::Null);
  CHECK(numeric.root.entries[1].key.text == "null");
}

TEST_CASE("YAML explicit tags", "[parse][yaml]") {
  const ConfigDocument doc = load(
      "s: !!str 123\ni: !!int '0x10'\nf: !!float 1e5\nb: !!bool 'Off'\nn: !!null x\n"
      "p: !!python/object:os.system 5\nc: !custom no\nm: !!map {a: 1}\nq: !!python/name:os.system {x: 1}\n"
      "set: !!set {a, b}\nbang: ! 12\n");
  REQUIRE(doc.errors.empty());
  const Node& r = doc.root;
  CHECK(r.find("s")->kind == NodeKind::String);
  CHECK(r.find("s")->text == "123");
  CHECK(r.find("s")->tag.empty());  // a standard tag that was applied is not kept
  CHECK(r.find("i")->kind == NodeKind::Int);
  CHECK(r.find("i")->integer == 16);
  CHECK(r.find("f")->kind == NodeKind::Float);
  CHECK(r.find("f")->number == 1e5);
  CHECK(r.find("b")->kind == NodeKind::Bool);
  CHECK_FALSE(r.find("b")->boolean);
  CHECK(r.find("n")->kind == NodeKind::Null);
  // Other tags are kept for rules to see, and the node is read as if untagged.
  CHECK(r.find("p")->tag == "!!python/object:os.system");
  CHECK(r.find("p")->kind == NodeKind::Int);
  CHECK(r.find("c")->tag == "!custom");
  CHECK(r.find("c")->kind == NodeKind::Bool);
  CHECK(r.find("m")->is_map());
  CHECK(r.find("q")->tag == "!!python/name:os.system");
  CHECK(r.find("q")->is_map());
  CHECK(r.find("set")->tag == "!!set");
  // The non-specific tag `!` on a plain scalar: libyaml marks it implicit and safe_load resolves it (12).
  CHECK(r.find("bang")->kind == NodeKind::Int);
  CHECK(r.find("bang")->tag.empty());
}

TEST_CASE("YAML tag and constructor errors are reported like safe_load's", "[parse][yaml]") {
  struct Case {
    const char* text;
    const char* message;  // a fragment
    const char* at;
  };
  const Case cases[] = {
      {"a: !!int abc\n", "invalid value for !!int", "1:4"},
      {"a: !!bool y\n", "invalid value for !!bool", "1:4"},
      {"a: !!map 1\n", "expected a mapping node, but found scalar", "1:4"},
      {"a: !!str [1]\n", "expected a scalar node, but found sequence", "1:4"},
      {"a: 0b_\n", "invalid int", "1:4"},
      {"a: =\n", "tag:yaml.org,2002:value", "1:4"},
      {"- <<\n", "tag:yaml.org,2002:merge", "1:3"},
      {"? [1]\n: 2\n", "found unhashable key", "1:3"},
      {"<<: 1\n", "expected a mapping or list of mappings for merging, but found scalar", "1:5"},
      {"<<: [{a: 1}, 2]\n", "expected a mapping for merging, but found scalar", "1:14"},
  };
  for (const Case& c : cases) {
    INFO("input: " << c.text);
    const ConfigDocument doc = load(c.text);
    CHECK_FALSE(doc.has_root);
    REQUIRE(doc.errors.size() == 1);
    CHECK_THAT(doc.errors[0].message, Catch::Contains(c.message));
    CHECK(where(doc) == c.at);
  }
  // `=` is only a problem as a value: as a key it is a string, also inside anchored nodes.
  CHECK(load("=: 1\n").errors.empty());
  CHECK(load("a: &x {=: 1}\nb: *x\n").root.find("b")->find("=")->integer == 1);
  CHECK(load("a: &x [=]\n").errors.size() == 1);
}

TEST_CASE("YAML merge keys", "[parse][yaml]") {
  const ConfigDocument doc = load(
      "base: &base {a: 1, b: 2}\n"
      "more: &more {b: 20, c: 30}\n"
      "one:\n  <<: *base\n  b: 3\n"
      "list:\n  <<: [*base, *more]\n  d: 4\n"
      "inline:\n  <<: {x: 1}\n  y: 2\n"
      "nested:\n  <<: {<<: *base, z: 9}\n");
  REQUIRE(doc.errors.empty());
  const Node& one = *doc.root.find("one");
  REQUIRE(one.entries.size() == 3);  // merged a, b, then the explicit b
  CHECK(one.entries[0].key.text == "a");
  CHECK(one.find("a")->integer == 1);
  CHECK(one.find("b")->integer == 3);  // explicit keys win
  CHECK(one.find("<<") == nullptr);
  // The merged entries point at the anchored mapping.
  CHECK(span(one.entries[0].key.region) == "1:14-1:15");

  const Node& list = *doc.root.find("list");
  CHECK(list.find("a")->integer == 1);
  CHECK(list.find("b")->integer == 2);  // the first mapping of the list wins
  CHECK(list.find("c")->integer == 30);
  CHECK(list.find("d")->integer == 4);

  CHECK(doc.root.find("inline")->find("x")->integer == 1);
  const Node& nested = *doc.root.find("nested");
  CHECK(nested.find("a")->integer == 1);
  CHECK(nested.find("z")->integer == 9);
  // A quoted '<<' is an ordinary key.
  CHECK(load("'<<': 1\n").root.find("<<")->integer == 1);
}

TEST_CASE("YAML anchors and aliases", "[parse][yaml]") {
  const ConfigDocument doc = load("a: &x {k: [1, 2]}\nb: *x\nc: &s hello\nd: *s\n");
  REQUIRE(doc.errors.empty());
  CHECK(doc.root.find("b")->find("k")->items.size() == 2);
  CHECK(doc.root.find("d")->text == "hello");
  CHECK(doc.root.find("a")->find("k")->items[1].integer == 2);  // the original is intact after copying

  CHECK_THAT(load("a: *nope\n").errors.at(0).message, Catch::Contains("found undefined alias 'nope'"));
  const ConfigDocument dup = load("a: &x 1\nb: &x 2\n");
  CHECK_THAT(dup.errors.at(0).message, Catch::Contains("found duplicate anchor 'x'"));
  CHECK(where(dup) == "2:4");
  CHECK_THAT(load("&a [*a]\n").errors.at(0).message, Catch::Contains("recursive alias"));
}

TEST_CASE("YAML alias bombs stop fast with an error", "[parse][yaml]") {
  // Billion laughs: 9 levels of 9 aliases each.
  std::string text = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
  for (char level = 'b'; level <= 'i'; ++level) {
    const char prev = static_cast<char>(level - 1);
    text += std::string(1, level) + ": &" + level + " [";
    for (int k = 0; k < 9; ++k) text += std::string(k ? ", " : "") + "*" + prev;
    text += "]\n";
  }
  const std::clock_t start = std::clock();
  const ConfigDocument doc = load(text);
  CHECK(seconds_below(1.0, start));
  CHECK_FALSE(doc.has_root);
  REQUIRE(doc.errors.size() == 1);
  CHECK_THAT(doc.errors[0].message, Catch::Contains("alias"));
  CHECK(doc.errors[0].region.begin.line <= 7);

  // Merge keys are aliases too.
  std::string merges = "a0: &a0 {k: 1}\n";
  for (int level = 1; level < 40; ++level) {
    const std::string prev = "*a" + std::to_string(level - 1);
    merges += "a" + std::to_string(level) + ": &a" + std::to_string(level) + " {<<: [" + prev + ", " + prev + "]}\n";
  }
  CHECK(load(merges).errors.size() == 1);
}

TEST_CASE("YAML aliases of a large scalar are limited by bytes, not only nodes", "[parse][yaml][limits]") {
  // 1 MB of text aliased 2,000 times: 2 GB if copied; stops at the alias past 16 MiB.
  std::string text = "big: &big " + std::string(1 << 20, 'x') + "\ncopies:\n";
  for (int i = 0; i < 2000; ++i) text += "- *big\n";
  const std::clock_t start = std::clock();
  const ConfigDocument doc = load(text);
  CHECK(seconds_below(2.0, start));
  CHECK_FALSE(doc.has_root);
  REQUIRE(doc.errors.size() == 1);
  CHECK_THAT(doc.errors[0].message, Catch::Contains("MiB of text") && Catch::Contains("'big'"));
  CHECK(doc.errors[0].region.begin.line == 3 + 16);

  // A modest anchor aliased a few times still loads.
  std::string ok = "base: &b {lr: 1.0e-4, name: " + std::string(1000, 'n') + "}\n";
  for (int i = 0; i < 100; ++i) ok += "run" + std::to_string(i) + ": *b\n";
  CHECK(load(ok).errors.empty());
}

TEST_CASE("YAML nesting is limited", "[parse][yaml]") {
  const std::size_t limit = lint::parse::kMaxNestingDepth;
  CHECK(load(std::string(limit, '[') + std::string(limit, ']')).errors.empty());
  const ConfigDocument deep = load(std::string(limit + 1, '[') + std::string(limit + 1, ']'));
  CHECK(where(deep) == "1:" + std::to_string(limit + 1));
  CHECK_THAT(deep.errors[0].message, Catch::Contains("nesting deeper than"));

  std::string block;
  for (std::size_t i = 0; i <= limit; ++i) block += std::string(i * 2, ' ') + "k:\n";
  block += std::string((limit + 1) * 2, ' ') + "v: 1\n";
  CHECK(load(block).errors.size() == 1);

  const std::clock_t start = std::clock();
  const ConfigDocument bomb = load(std::string(100000, '['));
  CHECK(seconds_below(1.0, start));
  CHECK(bomb.errors.size() == 1);
  CHECK_FALSE(bomb.has_root);

  // An alias can nest a deep anchored node deeper still.
  const std::string anchored = "a: &d " + std::string(200, '[') + std::string(200, ']') +
                               "\nb: " + std::string(100, '[') + "*d" + std::string(100, ']') + "\n";
  const ConfigDocument via_alias = load(anchored);
  REQUIRE(via_alias.errors.size() == 1);
  CHECK_THAT(via_alias.errors[0].message, Catch::Contains("deeper than"));
}

TEST_CASE("YAML positions: code points, tabs, CRLF, BOM", "[parse][yaml]") {
  const ConfigDocument doc =
      load("\xD0\xBA\xD0\xBB\xD1\x8E\xD1\x87: '\xC3\xA9'\r\nb:\t[1,\t\"x\"]\r\nc: >\r\n  folded\r\n");
  REQUIRE(doc.errors.empty());
  const lint::parse::Entry* e = doc.root.find_entry("\xD0\xBA\xD0\xBB\xD1\x8E\xD1\x87");
  REQUIRE(e != nullptr);
  CHECK(span(e->key.region) == "1:1-1:5");
  CHECK(span(e->value.region) == "1:7-1:10");
  CHECK(span(doc.root.find("b")->region) == "2:4-2:12");
  CHECK(span(doc.root.find("b")->items[1].region) == "2:8-2:11");
  CHECK(doc.root.find("c")->region.begin == lint::source::Position{3, 4});
  CHECK(doc.root.region.begin == lint::source::Position{1, 1});

  const ConfigDocument bom = load(
      "\xEF\xBB\xBF"
      "a: 1\nb: x\n");
  REQUIRE(bom.errors.empty());
  CHECK(span(bom.root.find_entry("a")->key.region) == "1:2-1:3");  // the BOM is column 1, as in SourceFile
  CHECK(span(bom.root.find_entry("b")->key.region) == "2:1-2:2");
  CHECK(bom.root.find("b")->region.begin_byte == 11);

  // A block mapping ends at its last value, not at the comments after it.
  const ConfigDocument block = load("top:\n  a: 1\n  b: [2]\n# comment\n\nnext: 3\n");
  CHECK(span(block.root.find("top")->region) == "2:3-3:9");
}

TEST_CASE("YAML streams: empty, comments only, several documents", "[parse][yaml]") {
  const ConfigDocument empty = load("");
  CHECK(empty.errors.empty());
  CHECK_FALSE(empty.has_root);
  CHECK(empty.format == lint::parse::Format::Yaml);

  const ConfigDocument comments = load("# just a comment\n\n");
  CHECK(comments.errors.empty());
  CHECK_FALSE(comments.has_root);

  const ConfigDocument bare = load("---\n");
  CHECK(bare.errors.empty());
  CHECK(bare.has_root);
  CHECK(bare.root.kind == NodeKind::Null);

  // The first document is loaded; where the second starts is kept for the driver, which reports it for a launch
  // config (read by a single-document loader) and not for a file it does not know (a Kubernetes manifest).
  const ConfigDocument two = load("a: 1\n---\nb: 2\n");
  CHECK(two.has_root);
  CHECK(two.errors.empty());
  REQUIRE(two.extra_document);
  CHECK_THAT(two.extra_document->message, Catch::Contains("expected a single document"));
  CHECK(two.extra_document->region.begin.line == 2);
  CHECK(two.extra_document->region.begin.column == 1);

  CHECK(load("a: 1\n...\n").errors.empty());
}

TEST_CASE("YAML syntax errors come from libyaml with positions", "[parse][yaml]") {
  const ConfigDocument flow = load("a: [1, 2\nb: 3\n");
  REQUIRE(flow.errors.size() == 1);
  CHECK_FALSE(flow.has_root);
  CHECK_THAT(flow.errors[0].message, Catch::Contains("while parsing a flow sequence at line 1, column 4"));

  const ConfigDocument indent = load("a: 1\n b: 2\n");
  REQUIRE(indent.errors.size() == 1);
  CHECK_THAT(indent.errors[0].message, Catch::Contains("mapping values are not allowed"));
  CHECK(where(indent) == "2:3");

  const ConfigDocument tab = load("a:\n\tb: 1\n");
  CHECK(tab.errors.size() == 1);

  const ConfigDocument unicode = load("\xC3\xA9\xC3\xA9: [x\n\xC3\xA9: y\n");
  REQUIRE(unicode.errors.size() == 1);
  CHECK(unicode.errors[0].region.begin.line == 2);
}

TEST_CASE("YAML that is not UTF-8 text is an error, not a crash", "[parse][yaml]") {
  const ConfigDocument bad = load("a: ok\nb: caf\xE9\n");
  CHECK_FALSE(bad.has_root);
  REQUIRE(bad.errors.size() == 1);
  CHECK(where(bad) == "2:7");
  CHECK_THAT(bad.errors[0].message, Catch::Contains("UTF-8"));

  const ConfigDocument control = load("a: \x01\n");
  CHECK(where(control) == "1:4");
  CHECK_THAT(control.errors[0].message, Catch::Contains("control characters"));

  std::string binary;
  for (int i = 0; i < 65536; ++i) binary += static_cast<char>((i * 7919 + 13) & 0xFF);
  const ConfigDocument garbage = load(binary);
  CHECK_FALSE(garbage.has_root);
  CHECK(garbage.errors.size() == 1);

  CHECK(load(std::string("a: 1\0b", 6)).errors.size() == 1);
  // UTF-16 is not guessed from a BOM: PyYAML reads the file as UTF-8.
  CHECK(load(std::string("\xFF\xFE"
                         "a\0:\0 \0"
                         "1\0",
                         10))
            .errors.size() == 1);
}

TEST_CASE("YAML: a 50 MB file loads", "[parse][yaml][slow]") {
  const std::size_t target = kSanitized ? 5'000'000 : 50'000'000;
  std::string text;
  text.reserve(target + 200);
  text += "defaults: &defaults\n  lr: 1.0e-5\n  warmup: 100\nruns:\n";
  std::size_t count = 0;
  while (text.size() < target) {
    const std::string id = std::to_string(count++);
    // Aliases are few, as in real files: their total expansion is capped (kMaxAliasExpansionNodes).
    const std::string merge = count < 1000 ? "    <<: *defaults\n" : "    lr: 1.0e-5\n";
    text += "  - name: run_" + id + "\n" + merge + "    seed: " + id +
            "\n    tags: [fsdp, bf16, 'no']\n    note: \"a longer description of this run, padded to look real\"\n";
  }
  const std::clock_t start = std::clock();
  const ConfigDocument doc = load(text);
  const double seconds = cpu_seconds_since(start);
  REQUIRE(doc.errors.empty());
  const Node& runs = *doc.root.find("runs");
  REQUIRE(runs.items.size() == count);
  CHECK(runs.items.back().find("seed")->integer == static_cast<std::int64_t>(count - 1));
  CHECK(runs.items.back().find("lr")->number == 1.0e-5);
  CHECK(runs.items.back().find("tags")->items[2].text == "no");
  WARN("loaded " << text.size() / 1'000'000 << " MB of YAML in " << seconds << " s");
  // Speed is reported (WARN above), not asserted: shared machines are too noisy for a timing assertion.
}
