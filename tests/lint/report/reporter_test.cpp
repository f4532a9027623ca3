// Reporter tests: golden files for every format (UPDATE_GOLDEN=1 rewrites them) and unit tests of the helpers.
#include "lint/report/reporter.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "lint/report/detail.hpp"

#ifndef LAUNCHLINT_SOURCE_DIR
#define LAUNCHLINT_SOURCE_DIR "."
#endif

#ifndef LAUNCHLINT_VERSION
#define LAUNCHLINT_VERSION "0.0.0"
#endif

namespace {

using lint::report::Format;
using lint::report::ReportInput;
using lint::rule::Diagnostic;
using lint::rule::RelatedLocation;
using lint::rule::RuleInfo;
using lint::rule::Severity;
using lint::source::Region;
using lint::source::SourceFile;
using lint::source::SourcePtr;

constexpr std::string_view kShardingDoc = R"md(# TST001 sharding-without-checkpointing

SHARD_GRAD_OP without activation checkpointing keeps every activation alive.

## Problematic config

```yaml
# Not a heading: a comment in a code block.
fsdp_sharding_strategy: SHARD_GRAD_OP
```

## Correct config

```yaml
fsdp_sharding_strategy: SHARD_GRAD_OP
fsdp_activation_checkpointing: true
```

## Rationale

Gradient and optimizer-state sharding (ZeRO-2) leaves the activations
as the largest item of the peak memory.

A second paragraph that is not part of the full description.

## Exceptions

Suppress with `# launchlint: ignore[TST001]`.

## Options

None.

## References

- <https://pytorch.org/docs/stable/fsdp.html>
)md";

constexpr std::string_view kLearningRateDoc =
    "# TST002 learning-rate-too-high\r\n"
    "\r\n"
    "A learning rate above 1.0 almost always diverges\r\n"
    "\r\n"
    "## Problematic config\r\n\r\n```toml\r\nlr = 10.0\r\n```\r\n\r\n"
    "## Correct config\r\n\r\n```toml\r\nlr = 3e-4\r\n```\r\n\r\n"
    "## Rationale\r\n\r\nAdam-style optimizers take steps of about `lr`; \"10.0\" moves every weight by 10 <at once> & "
    "more.\r\n\r\n"
    "## Exceptions\r\n\r\nNone.\r\n\r\n## Options\r\n\r\nNone.\r\n\r\n## References\r\n\r\n- Kingma & Ba, 2014.\r\n";

lint::rule::RuleTable make_rules() {
  lint::rule::RuleTable rules;
  rules.push_back(
      RuleInfo{"TST001", "sharding-without-checkpointing", "distributed", Severity::Warning, kShardingDoc, nullptr});
  rules.push_back(
      RuleInfo{"TST002", "learning-rate-too-high", "optimizer", Severity::Error, kLearningRateDoc, nullptr});
  return rules;
}

/// Files, diagnostics and the input that refers to them.
struct Fixture {
  lint::rule::RuleTable rules = make_rules();
  lint::source::SourceMap sources;
  std::vector<Diagnostic> diagnostics;
  ReportInput input;

  const SourceFile& add_source(const std::string& path, std::string text) {
    auto file = std::make_shared<const SourceFile>(path, std::move(text));
    lint::source::put_source(sources, file);
    return *file;
  }

  /// The region of the first occurrence of `needle` on 1-based `line`.
  static Region find(const SourceFile& file, std::uint32_t line, std::string_view needle) {
    const std::size_t start = file.line_start(line) + file.line_text(line).find(needle);
    return file.region(start, start + needle.size());
  }

  Diagnostic& add(std::string code, std::string slug, Severity severity, std::string path, Region region,
                  std::string message) {
    Diagnostic d;
    d.code = std::move(code);
    d.slug = std::move(slug);
    d.severity = severity;
    d.path = std::move(path);
    d.region = region;
    d.message = std::move(message);
    diagnostics.push_back(std::move(d));
    return diagnostics.back();
  }

  void finish(std::string srcroot = "file:///work/project/") {
    std::sort(diagnostics.begin(), diagnostics.end());
    input.diagnostics = &diagnostics;
    input.rules = &rules;
    input.sources = &sources;
    input.srcroot = std::move(srcroot);
    input.files_checked = sources.size();
  }
};

/// The shared example: a YAML file with tabs, a Python file with multi-byte characters, a CRLF TOML file whose
/// name needs percent-encoding, a whole-file finding, a suppressed multi-line finding, related locations, and a
/// file outside the source root.
Fixture make_fixture() {
  Fixture f;
  const SourceFile& yaml =
      f.add_source("configs/train.yaml", "model:\n\tsharding_strategy: SHARD_GRAD_OP\t# zero-2\n\tlr: 3.0\n");
  const SourceFile& py = f.add_source("scripts/launch_\xc3\xa9.py",
                                      "# \xc3\x9c"
                                      "berpr\xc3\xbc"
                                      "fung \xe2\x80\x94 \xe5\xad\xa6\xe7\xbf\x92\xe7\x8e\x87\n"
                                      "lr = 3.0  # caf\xc3\xa9\n");
  const SourceFile& toml =
      f.add_source("configs/crlf #2.toml", "[optim]\r\nlr = 10.0\r\nbetas = [\r\n  0.9,\r\n  0.999,\r\n]\r\n");
  f.add_source("configs/empty.json", "{}\n");

  Diagnostic& sharding =
      f.add("TST001", "sharding-without-checkpointing", Severity::Warning, "configs/train.yaml",
            Fixture::find(yaml, 2, "sharding_strategy"), "SHARD_GRAD_OP is set but activation checkpointing is off.");
  sharding.setting = "fsdp.sharding_strategy";
  sharding.related.push_back(RelatedLocation{"scripts/launch_\xc3\xa9.py", Fixture::find(py, 2, "lr = 3.0"),
                                             "The launcher sets the same run here."});

  Diagnostic& lr = f.add("TST002", "learning-rate-too-high", Severity::Error, "configs/train.yaml",
                         Fixture::find(yaml, 3, "3.0"), "Learning rate '3.0' is > 1.0 (\"100%\" of: a,b) \x01\xff.");
  lr.setting = "optimizer.lr";
  lr.related.push_back(
      RelatedLocation{"/etc/launchlint/site.yaml", yaml.region(0, 0), "A site default outside the project."});

  f.add("TST002", "learning-rate-too-high", Severity::Info, "scripts/launch_\xc3\xa9.py",
        Fixture::find(py, 1, "\xe5\xad\xa6\xe7\xbf\x92\xe7\x8e\x87"), "The comment mentions a learning rate.");

  Diagnostic& crlf = f.add("TST002", "learning-rate-too-high", Severity::Error, "configs/crlf #2.toml",
                           Fixture::find(toml, 2, "10.0"), "Learning rate 10.0 is above 1.0");
  crlf.setting = "optim.lr";

  const std::size_t list_begin = toml.line_start(3) + toml.line_text(3).find('[');
  Diagnostic& multi = f.add("TST001", "sharding-without-checkpointing", Severity::Warning, "configs/crlf #2.toml",
                            toml.region(list_begin, toml.line_start(6) + 1), "This list spans four lines.");
  multi.suppressed = true;

  f.add("TST001", "sharding-without-checkpointing", Severity::Warning, "configs/empty.json", Region{},
        "No launch settings were found in this file.");
  f.finish();
  return f;
}

std::string render(Format format, const ReportInput& in) {
  std::ostringstream out;
  lint::report::write(format, out, in);
  return out.str();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The version in the SARIF golden is 0.0.0 whatever version this build has.
std::string normalize_version(std::string text) {
  for (const std::string key : {"\"version\": \"", "\"semanticVersion\": \""}) {
    const std::string from = key + LAUNCHLINT_VERSION + "\"";
    const std::string to = key + "0.0.0\"";
    for (auto pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size())) {
      text.replace(pos, from.size(), to);
    }
  }
  return text;
}

void check_golden(const std::string& name, const std::string& actual) {
  const std::string path = std::string(LAUNCHLINT_SOURCE_DIR) + "/tests/golden/" + name;
  const char* update = std::getenv("UPDATE_GOLDEN");
  if (update != nullptr && std::string_view(update) == "1") {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << actual;
    REQUIRE(out.good());
    WARN("rewrote " << path);
    return;
  }
  const std::string expected = read_file(path);
  INFO("golden " << path << " (run with UPDATE_GOLDEN=1 to rewrite)");
  if (actual != expected) {
    const auto diff = std::mismatch(actual.begin(), actual.end(), expected.begin(), expected.end());
    const auto at = static_cast<std::size_t>(diff.first - actual.begin());
    const auto line = std::count(actual.begin(), diff.first, '\n') + 1;
    INFO("first difference at byte " << at << ", line " << line);
    CHECK(actual == expected);
  }
}

}  // namespace

TEST_CASE("golden: every format", "[report][golden]") {
  const Fixture f = make_fixture();
  check_golden("text.txt", render(Format::Text, f.input));
  check_golden("concise.txt", render(Format::Concise, f.input));
  check_golden("json.json", render(Format::Json, f.input));
  check_golden("sarif.sarif", normalize_version(render(Format::Sarif, f.input)));
  check_golden("github.txt", render(Format::Github, f.input));
  check_golden("gitlab.json", render(Format::Gitlab, f.input));
  check_golden("junit.xml", render(Format::Junit, f.input));
}

TEST_CASE("links: only under a configured docs URL", "[report]") {
  Fixture f = make_fixture();
  const std::string sarif = render(Format::Sarif, f.input);
  CHECK(sarif.find("helpUri") == std::string::npos);
  CHECK(sarif.find("informationUri") == std::string::npos);
  CHECK(render(Format::Json, f.input).find("\"url\": \"") == std::string::npos);
  f.input.docs_url = "https://docs.example.test/v1/rules";
  const std::string linked = render(Format::Sarif, f.input);
  CHECK_THAT(linked, Catch::Contains(
                         "\"helpUri\": \"https://docs.example.test/v1/rules/distributed/sharding-without-checkpointing.md\""));
  CHECK_THAT(linked, Catch::Contains("\"informationUri\": \"https://docs.example.test/v1/rules\""));
  CHECK_THAT(render(Format::Json, f.input),
             Catch::Contains("\"url\": \"https://docs.example.test/v1/rules/optimizer/learning-rate-too-high.md\""));
  CHECK(lint::report::rule_url("", "fsdp", "x").empty());
}

TEST_CASE("text: no diagnostics", "[report]") {
  Fixture f;
  f.finish();
  CHECK(render(Format::Text, f.input) == "All checks passed!\n");
  CHECK(render(Format::Concise, f.input) == "All checks passed!\n");
  CHECK(render(Format::Json, f.input) == "{\n  \"version\": 1,\n  \"files_checked\": 0,\n  \"diagnostics\": []\n}\n");
  CHECK(render(Format::Gitlab, f.input) == "[]\n");
  ReportInput empty;
  CHECK(render(Format::Text, empty) == "All checks passed!\n");
}

TEST_CASE("text: summary counts and plurals", "[report]") {
  using lint::report::detail::Counts;
  using lint::report::detail::summary_line;
  CHECK(summary_line(Counts{}) == "All checks passed!");
  CHECK(summary_line(Counts{1, 0, 0, 0}) == "Found 1 problem (1 error, 0 warnings, 0 infos).");
  CHECK(summary_line(Counts{2, 3, 1, 4}) == "Found 6 problems (2 errors, 3 warnings, 1 info).");
  // Suppressed diagnostics are not problems.
  CHECK(summary_line(Counts{0, 0, 0, 3}) == "All checks passed!");
}

TEST_CASE("text: colour only when asked", "[report]") {
  Fixture f = make_fixture();
  const std::string plain = render(Format::Text, f.input);
  CHECK(plain.find('\x1b') == std::string::npos);
  f.input.color = true;
  const std::string coloured = render(Format::Text, f.input);
  CHECK(coloured.find("\x1b[1;31mTST002\x1b[0m") != std::string::npos);  // error code: red
  CHECK(coloured.find("\x1b[1;33mTST001\x1b[0m") != std::string::npos);  // warning code: yellow
  CHECK(coloured.find("\x1b[1;36mTST002\x1b[0m") != std::string::npos);  // info code: cyan
  CHECK(coloured.find("\x1b[1mconfigs/train.yaml\x1b[0m") != std::string::npos);
}

TEST_CASE("text: carets stay aligned under tabs and wide characters", "[report]") {
  using lint::report::detail::render_line;
  const auto tabbed = render_line("\tkey:\tvalue");
  CHECK(tabbed.text == "    key:    value");
  CHECK(tabbed.offset(1) == 0);
  CHECK(tabbed.offset(2) == 4);
  CHECK(tabbed.offset(7) == 12);  // 'v' after the second tab
  CHECK(tabbed.width() == 17);
  const auto wide = render_line(
      "a\xe5\xad\xa6"
      "b\xc3\xa9");
  CHECK(wide.offset(2) == 1);
  CHECK(wide.offset(3) == 3);  // U+5B66 takes two cells
  CHECK(wide.offset(5) == 5);
  // Escape sequences and invalid UTF-8 from a linted file never reach the terminal.
  const auto unsafe = render_line("a\x1b[31mb\xff");
  CHECK(unsafe.text == "a\xef\xbf\xbd[31mb\xef\xbf\xbd");
  CHECK(unsafe.offset(7) == 6);
}

TEST_CASE("json_escape: control characters and invalid UTF-8", "[report]") {
  using lint::report::json_escape;
  CHECK(json_escape("plain") == "plain");
  CHECK(json_escape("a\"b\\c/") == "a\\\"b\\\\c/");
  CHECK(json_escape("\b\f\n\r\t") == "\\b\\f\\n\\r\\t");
  CHECK(json_escape(std::string_view("\x00\x01\x1f\x7f", 4)) == "\\u0000\\u0001\\u001f\\u007f");
  CHECK(json_escape("caf\xc3\xa9 \xf0\x9f\x98\x80") == "caf\xc3\xa9 \xf0\x9f\x98\x80");
  CHECK(json_escape("\xff") == "\\ufffd");
  CHECK(json_escape("a\xc3") == "a\\ufffd");                      // truncated sequence
  CHECK(json_escape("\xe2\x82x") == "\\ufffdx");                  // maximal subpart: one replacement
  CHECK(json_escape("\xed\xa0\x80") == "\\ufffd\\ufffd\\ufffd");  // surrogate: three
  CHECK(json_escape("\xc0\xaf") == "\\ufffd\\ufffd");             // overlong
  CHECK(json_escape("\xe2\x80\xa8") == "\\u2028");
}

TEST_CASE("parse_format", "[report]") {
  using lint::report::parse_format;
  CHECK(parse_format("text") == Format::Text);
  CHECK(parse_format("concise") == Format::Concise);
  CHECK(parse_format("json") == Format::Json);
  CHECK(parse_format("sarif") == Format::Sarif);
  CHECK(parse_format("github") == Format::Github);
  CHECK(parse_format("junit") == Format::Junit);
  CHECK_FALSE(parse_format("xml").has_value());
  CHECK_FALSE(parse_format("").has_value());
}

TEST_CASE("github: workflow-command escaping", "[report]") {
  using lint::report::detail::github_escape_data;
  using lint::report::detail::github_escape_property;
  CHECK(github_escape_data("100% a:b,c\r\nd") == "100%25 a:b,c%0D%0Ad");
  CHECK(github_escape_property("100% a:b,c\r\nd") == "100%25 a%3Ab%2Cc%0D%0Ad");
  CHECK(github_escape_data("%25") == "%2525");
}

TEST_CASE("github: columns only on single-line spans", "[report]") {
  Fixture f;
  const SourceFile& file = f.add_source("a, b:c.yaml", "x: 1\ny: [\n  2,\n]\n");
  f.add("TST001", "sharding-without-checkpointing", Severity::Warning, "a, b:c.yaml", Fixture::find(file, 1, "1"),
        "One line.");
  f.add("TST001", "sharding-without-checkpointing", Severity::Warning, "a, b:c.yaml",
        file.region(file.line_start(2) + 3, file.line_start(4) + 1), "Three lines.");
  // Ends at column 1 of the next line: still one line.
  f.add("TST002", "learning-rate-too-high", Severity::Error, "a, b:c.yaml",
        file.region(file.line_start(1), file.line_start(2)), "Whole line.");
  f.finish();
  CHECK(render(Format::Github, f.input) ==
        "::error file=a%2C b%3Ac.yaml,line=1,col=1,title=TST002 learning-rate-too-high::a, b:c.yaml:1:1: TST002 "
        "Whole line.\n"
        "::warning file=a%2C b%3Ac.yaml,line=1,col=4,endLine=1,endColumn=5,title=TST001 "
        "sharding-without-checkpointing::a, b:c.yaml:1:4: TST001 One line.\n"
        "::warning file=a%2C b%3Ac.yaml,line=2,endLine=4,title=TST001 sharding-without-checkpointing::a, "
        "b:c.yaml:2:4: TST001 Three lines.\n");
}

TEST_CASE("github: at most 10 annotations per level, then one notice", "[report]") {
  Fixture f;
  const SourceFile& file = f.add_source("big.yaml", std::string(40, '\n'));
  auto add = [&](Severity s, std::uint32_t line) {
    f.add("TST001", "sharding-without-checkpointing", s, "big.yaml", file.line_region(line), "Finding.");
  };
  for (std::uint32_t i = 1; i <= 13; ++i) add(Severity::Warning, i);
  for (std::uint32_t i = 14; i <= 16; ++i) add(Severity::Error, i);
  for (std::uint32_t i = 17; i <= 30; ++i) add(Severity::Info, i);
  f.diagnostics.back().suppressed = true;  // not an annotation, not counted as dropped
  f.finish();
  const std::string out = render(Format::Github, f.input);
  std::vector<std::string> lines;
  std::istringstream stream(out);
  for (std::string line; std::getline(stream, line);) lines.push_back(line);
  auto count_prefix = [&](std::string_view prefix) {
    return std::count_if(lines.begin(), lines.end(), [&](const std::string& l) { return l.starts_with(prefix); });
  };
  CHECK(count_prefix("::error ") == 3);
  CHECK(count_prefix("::warning ") == 10);
  CHECK(count_prefix("::notice ") == 9);  // room is kept for the closing notice
  REQUIRE(lines.size() == 23);
  CHECK(lines[0].starts_with("::error "));
  CHECK(lines[3].starts_with("::warning "));
  CHECK(lines.back().starts_with("::notice::launchlint: 7 more problems not shown"));
  CHECK(lines.back().find("SARIF") != std::string::npos);
}

TEST_CASE("sarif: artifact URIs relative to the source root", "[report]") {
  using lint::report::detail::artifact_uri;
  using lint::report::detail::make_srcroot;
  const auto root = make_srcroot("file:///work/my%20project/");
  CHECK(root.dir == "/work/my project/");
  CHECK(root.uri == "file:///work/my%20project/");
  CHECK(make_srcroot("/work/my project").uri == "file:///work/my%20project/");
  CHECK(make_srcroot("/work/a/../b/").dir == "/work/b/");
  CHECK(make_srcroot("relative/dir").dir.starts_with("/"));

  auto check = [&](std::string_view path, std::string_view uri, bool relative) {
    const auto got = artifact_uri(root, path);
    CHECK(got.uri == uri);
    CHECK(got.relative == relative);
  };
  check("configs/a b#1.yaml", "configs/a%20b%231.yaml", true);
  check("./configs/../x.yaml", "x.yaml", true);
  check("caf\xc3\xa9.py", "caf%C3%A9.py", true);
  check("c:d.toml", "c%3Ad.toml", true);  // a first segment with ':' would read as a scheme
  check("/work/my project/sub/x.json", "sub/x.json", true);
  check("/etc/x.yaml", "file:///etc/x.yaml", false);
  check("../outside.yaml", "file:///work/outside.yaml", false);
}

TEST_CASE("sarif: rule metadata helpers", "[report]") {
  using namespace lint::report::detail;
  CHECK(pascal_case("sharding-without-checkpointing") == "ShardingWithoutCheckpointing");
  CHECK(pascal_case("lr_2x-warmup") == "Lr2xWarmup");
  CHECK(doc_section_first_paragraph(kShardingDoc, "Rationale") ==
        "Gradient and optimizer-state sharding (ZeRO-2) leaves the activations as the largest item of the peak "
        "memory.");
  CHECK(doc_section_first_paragraph(kShardingDoc, "Missing").empty());
  CHECK(with_period("No period") == "No period.");
  CHECK(with_period("Has one. ") == "Has one.");
  const std::string long_text(2000, 'x');
  CHECK(truncate_utf8(long_text, 1024).size() <= 1024);
  const std::string accents = std::string(1023, 'a') + "\xc3\xa9\xc3\xa9";
  const std::string cut = truncate_utf8(accents, 1024);
  CHECK(cut.size() <= 1024);
  CHECK(sanitize_utf8(cut) == cut);
}

TEST_CASE("sarif: primaryLocationLineHash matches codeql-action", "[report][fingerprint]") {
  // Expected values from tests/lint/report/fingerprint_oracle.js (an independent Node.js re-implementation of
  // github/codeql-action src/fingerprints.ts, cross-checked once against the upstream function).
  using lint::report::primary_location_line_hash;
  const SourceFile yaml("t1", "model:\n\tsharding_strategy: SHARD_GRAD_OP\n\tlr: 3.0\n");
  CHECK(primary_location_line_hash(yaml, 1) == "f6dcd895419753be:1");
  CHECK(primary_location_line_hash(yaml, 2) == "a811cf3c76014cb9:1");
  CHECK(primary_location_line_hash(yaml, 3) == "4e91112a9de0b9ba:1");
  CHECK(primary_location_line_hash(yaml, 4) == "c129715d7a2bc9a3:1");  // the empty line after the last break
  CHECK(primary_location_line_hash(yaml, 5).empty());
  CHECK(primary_location_line_hash(yaml, 0) == "f6dcd895419753be:1");  // whole file: line 1

  const SourceFile crlf("t2", "a = 1\r\nb = 2\r\n\r\na = 1\r\n");
  CHECK(primary_location_line_hash(crlf, 1) == "1978edff78e92d4a:1");
  CHECK(primary_location_line_hash(crlf, 2) == "c1ddc603cc081a29:1");
  CHECK(primary_location_line_hash(crlf, 3) == "b4f7e615993a6336:1");
  CHECK(primary_location_line_hash(crlf, 4) == "2fb41b19264fc464:1");

  // Multi-byte and astral characters (UTF-16 units), invalid UTF-8, a line longer than the 100-unit window.
  const SourceFile mixed("t3", "# \xe5\xad\xa6\xe7\xbf\x92 \xf0\x9f\x98\x80\nx = 'caf\xc3\xa9' \xff\xe2\x82\n" +
                                   std::string(130, 'k') + "\nend");
  CHECK(primary_location_line_hash(mixed, 1) == "331a56f5ad5f520d:1");
  CHECK(primary_location_line_hash(mixed, 2) == "5e46bb4d447ddc9d:1");
  CHECK(primary_location_line_hash(mixed, 3) == "38ae8874fb795354:1");
  CHECK(primary_location_line_hash(mixed, 4) == "43b6461eda086fe2:1");

  // Lone CR line ends, CR followed by a space then LF (two line ends), blank lines of spaces and tabs.
  const SourceFile cr("t4", "a\rb\r \nc\n\n  \t\nd");
  const char* const expected_cr[] = {"71ead9712a712965:1", "294c26576475537e:1", "a0f63b3a418ebbda:1",
                                     "4b7669657a809418:1", "254cab44c08f7c0f:1", "6bf49ae9d59c5bc1:1",
                                     "a23a3dc5e078b07b:1"};
  for (std::uint32_t line = 1; line <= 7; ++line) CHECK(primary_location_line_hash(cr, line) == expected_cr[line - 1]);
  CHECK(cr.line_count() == 7);  // the same line numbering as SourceFile

  // Identical 100-unit windows count occurrences.
  std::string repeated;
  for (int i = 0; i < 30; ++i) repeated += "aaaa\n";
  const SourceFile same("t5", repeated);
  CHECK(primary_location_line_hash(same, 1) == "452c7300f018b548:1");
  CHECK(primary_location_line_hash(same, 11) == "452c7300f018b548:11");
  CHECK(primary_location_line_hash(same, 12) == "452c731d7dca1b81:1");
  CHECK(primary_location_line_hash(same, 13) == "bb31084f45838bdf:1");
}

TEST_CASE("sarif: stable fingerprint ignores the line", "[report][fingerprint]") {
  auto fingerprint_of = [](std::uint32_t blank_lines) {
    Fixture f;
    const SourceFile& file = f.add_source("a.yaml", std::string(blank_lines, '\n') + "lr: 3.0\n");
    Diagnostic& d = f.add("TST002", "learning-rate-too-high", Severity::Error, "a.yaml",
                          Fixture::find(file, blank_lines + 1, "3.0"), "Too high.");
    d.setting = "optimizer.lr";
    f.finish();
    const std::string sarif = render(Format::Sarif, f.input);
    const auto key = sarif.find("\"launchlint/v1\": \"");
    REQUIRE(key != std::string::npos);
    return sarif.substr(key, sarif.find('"', key + 18) - key);
  };
  CHECK(fingerprint_of(0) == fingerprint_of(5));
}

TEST_CASE("junit: well-formed escaping", "[report]") {
  Fixture f;
  f.add_source("a&b.yaml", "x: 1\n");
  f.add("TST001", "sharding-without-checkpointing", Severity::Warning, "a&b.yaml", Region{},
        "Quotes \" ' <tag> & \x02 control.");
  f.finish();
  const std::string xml = render(Format::Junit, f.input);
  CHECK(xml.find("<testcase name=\"a&amp;b.yaml\" classname=\"launchlint\">") != std::string::npos);
  CHECK(xml.find("message=\"a&amp;b.yaml: TST001 Quotes &quot; &apos; &lt;tag&gt; &amp; \xef\xbf\xbd control.\"") !=
        std::string::npos);
  CHECK(xml.find('\x02') == std::string::npos);
}
