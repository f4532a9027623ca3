// The result cache's payload: every field round-trips, any bytes (UTF-8 or not), and malformed input is refused
// with std::out_of_range, never a crash or a wrong entry.
#include "lint/driver/cache_entry.hpp"

#include <catch2/catch.hpp>
#include <random>

using lint::driver::cache_entry::decode;
using lint::driver::cache_entry::encode;
using lint::driver::cache_entry::Entry;

namespace {

lint::source::Region region(std::uint32_t line, std::uint32_t col, std::uint32_t end_line, std::uint32_t end_col,
                            std::size_t b, std::size_t e) {
  lint::source::Region r;
  r.begin = {line, col};
  r.end = {end_line, end_col};
  r.begin_byte = b;
  r.end_byte = e;
  return r;
}

std::vector<lint::rule::Diagnostic> sample_diagnostics() {
  lint::rule::Diagnostic a;
  a.code = "FSDP001";
  a.slug = "shard-grad-op-without-activation-checkpointing";
  a.severity = lint::rule::Severity::Error;
  a.message = "a message \xff not UTF-8, with a\nnewline";
  a.path = "repo/fsdp.yaml";
  a.region = region(3, 5, 3, 19, 40, 54);
  a.setting = "fsdp_sharding_strategy";
  a.related.push_back({"repo/launch.sh", region(1, 1, 1, 80, 0, 79), "launched here"});
  a.related.push_back({"repo/train.py", region(12, 9, 14, 2, 300, 4000000000ULL), ""});
  lint::rule::Diagnostic b = a;
  b.code = "LL002";
  b.severity = lint::rule::Severity::Info;
  b.region = {};
  b.related.clear();
  b.suppressed = true;
  b.setting.clear();
  lint::rule::Fix fix;
  fix.description = "Rename `x` to `y`";
  fix.safety = lint::rule::FixSafety::Unsafe;
  fix.edits.push_back({"repo/fsdp.yaml", 10, 12, "yy"});
  fix.edits.push_back({"repo/fsdp.yaml", 20, 20, ""});
  b.fix = fix;
  return {a, b, a};
}

Entry sample_entry() {
  Entry e;
  e.files_checked = 12345;
  e.depends_on = {{"./0 train.py", "absent"}, {"/etc/secret", "outside:file"}, {"cfg.json", std::string(64, 'a')}};
  e.documents = {{"repo/fsdp.yaml", 1, std::nullopt, true},
                 {"repo/bad.yaml", 0, std::string("not valid UTF-8"), true},
                 {"/etc/secret", 0, std::string("outside the project"), false}};
  return e;
}

}  // namespace

TEST_CASE("cache entries round-trip every field", "[driver][cache]") {
  const auto diagnostics = sample_diagnostics();
  const Entry e = sample_entry();
  const Entry back = decode(encode(e, diagnostics));
  CHECK(back.files_checked == e.files_checked);
  REQUIRE(back.depends_on.size() == e.depends_on.size());
  for (std::size_t i = 0; i < e.depends_on.size(); ++i) {
    CHECK(back.depends_on[i].path == e.depends_on[i].path);
    CHECK(back.depends_on[i].state == e.depends_on[i].state);
  }
  REQUIRE(back.documents.size() == e.documents.size());
  for (std::size_t i = 0; i < e.documents.size(); ++i) {
    CHECK(back.documents[i].path == e.documents[i].path);
    CHECK(back.documents[i].kind == e.documents[i].kind);
    CHECK(back.documents[i].read_error == e.documents[i].read_error);
    CHECK(back.documents[i].quotable == e.documents[i].quotable);
  }
  REQUIRE(back.diagnostics.size() == diagnostics.size());
  for (std::size_t i = 0; i < diagnostics.size(); ++i) {
    const auto& x = diagnostics[i];
    const auto& y = back.diagnostics[i];
    CHECK(y.code == x.code);
    CHECK(y.slug == x.slug);
    CHECK(y.severity == x.severity);
    CHECK(y.message == x.message);
    CHECK(y.path == x.path);
    CHECK(y.region == x.region);
    CHECK(y.setting == x.setting);
    CHECK(y.suppressed == x.suppressed);
    REQUIRE(y.related.size() == x.related.size());
    for (std::size_t k = 0; k < x.related.size(); ++k) {
      CHECK(y.related[k].path == x.related[k].path);
      CHECK(y.related[k].region == x.related[k].region);
      CHECK(y.related[k].message == x.related[k].message);
    }
    REQUIRE(y.fix.has_value() == x.fix.has_value());
    if (x.fix) {
      CHECK(y.fix->description == x.fix->description);
      CHECK(y.fix->safety == x.fix->safety);
      CHECK(y.fix->edits == x.fix->edits);
    }
  }
}

TEST_CASE("a cache entry stores each string once", "[driver][cache]") {
  std::vector<lint::rule::Diagnostic> many;
  for (int i = 0; i < 1000; ++i) many.push_back(sample_diagnostics().front());
  const std::string one = encode(Entry{}, {many.front()});
  const std::string thousand = encode(Entry{}, many);
  // The strings are written once; each further finding costs its indices and region, not its text again.
  CHECK(thousand.size() < one.size() + 999 * 40);
}

TEST_CASE("a truncated or damaged cache entry is refused, never misread", "[driver][cache]") {
  const std::string bytes = encode(sample_entry(), sample_diagnostics());
  for (std::size_t n = 0; n < bytes.size(); ++n) CHECK_THROWS_AS(decode(bytes.substr(0, n)), std::out_of_range);
  CHECK_THROWS_AS(decode(bytes + "x"), std::out_of_range);
  // Flipped bytes: refused, or decoded into some entry; never a crash or a runaway allocation (the entry's
  // header carries the payload's SHA-256, so such an entry is never used).
  std::mt19937 rng(7);
  for (int round = 0; round < 2000; ++round) {
    std::string damaged = bytes;
    damaged[rng() % damaged.size()] = static_cast<char>(rng() & 0xFF);
    try {
      (void)decode(damaged);
    } catch (const std::out_of_range&) {
    }
  }
  CHECK_THROWS_AS(decode(std::string("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11)), std::out_of_range);
}
