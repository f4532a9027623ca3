// Suppression comments: what find_suppressions recognises (and what it must not), then their semantics in a real
// run: same line, the line below a comment alone on its line, the whole file, JSON's "//" key, unknown codes.
#include "lint/rule/suppression.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "tests/support/fixture_support.hpp"

using lint::rule::find_suppressions;
using lint::rule::Suppression;
using lint::source::SourceFile;

namespace fs = std::filesystem;

namespace {

std::string span(const lint::source::Region& r) {
  return std::to_string(r.begin.line) + ":" + std::to_string(r.begin.column) + "-" + std::to_string(r.end.line) +
         ":" + std::to_string(r.end.column);
}

std::vector<Suppression> yaml(const std::string& text) { return find_suppressions(SourceFile("f.yaml", text), false); }

/// The directives that suppress something: malformed and code-less ones come back too, with `problem` set or as
/// a bare `# noqa`, for LL005.
std::vector<Suppression> effective(std::vector<Suppression> all) {
  std::erase_if(all, [](const Suppression& s) { return !s.problem.empty() || s.bare_noqa; });
  return all;
}

/// One directive that suppresses nothing and says why (LL005).
bool malformed(const std::vector<Suppression>& all) {
  return all.size() == 1 && !all[0].problem.empty() && all[0].codes.empty();
}

/// A shard-grad-op config (FSDP001 fires on line 5, the strategy) with `comment_lines` inserted before line 5.
std::string sgo_config(const std::string& strategy_suffix, const std::string& comment_lines = "") {
  return "distributed_type: FSDP\n"
         "num_processes: 8\n"
         "fsdp_config:\n"
         "  fsdp_version: 1\n" +
         comment_lines + "  fsdp_sharding_strategy: SHARD_GRAD_OP" + strategy_suffix +
         "\n"
         "  fsdp_activation_checkpointing: false\n";
}

struct Outcome {
  std::string code;
  std::uint32_t line = 0;
  bool suppressed = false;
  std::string region;
  friend bool operator==(const Outcome&, const Outcome&) = default;
};

std::ostream& operator<<(std::ostream& os, const Outcome& o) {
  return os << o.code << "@" << o.line << (o.suppressed ? " (suppressed)" : "") << " " << o.region;
}

/// Lints one file (named `name`, holding `text`) with `codes` enabled, suppressed findings included.
std::vector<Outcome> run_on(const std::string& name, const std::string& text, std::vector<std::string> codes) {
  const fs::path dir = fs::temp_directory_path() / ("launchlint-suppression-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  lint::driver::RunOptions opts;
  opts.paths = {(dir / name).generic_string()};
  opts.selection.select = std::move(codes);
  opts.jobs = 1;
  opts.show_suppressed = true;
  const auto result = lint::driver::run(lint::rules::rule_table(), opts);
  std::vector<Outcome> out;
  for (const auto& d : result.diagnostics) out.push_back({d.code, d.region.begin.line, d.suppressed, span(d.region)});
  fs::remove_all(dir);
  return out;
}

}  // namespace

TEST_CASE("suppression: trailing ignore[...] with several codes", "[suppression]") {
  const auto s = yaml("a: 1\nkey: v  # launchlint: ignore[FSDP001, LL] reason\n");
  REQUIRE(s.size() == 1);
  CHECK(s[0].scope == Suppression::Scope::Line);
  CHECK(s[0].line == 2);
  CHECK_FALSE(s[0].own_line);
  CHECK_FALSE(s[0].noqa);
  CHECK(s[0].codes == std::vector<std::string>{"FSDP001", "LL"});
  REQUIRE(s[0].code_regions.size() == 2);
  CHECK(span(s[0].code_regions[0]) == "2:30-2:37");
  CHECK(span(s[0].code_regions[1]) == "2:39-2:41");
  CHECK(span(s[0].region) == "2:9-2:49");  // from '#' to the end of the line
  CHECK(s[0].used == std::vector<bool>{false, false});
}

TEST_CASE("suppression: a comment alone on its line, file-ignore, noqa", "[suppression]") {
  const auto own = yaml("  # launchlint: ignore[FSDP001] checkpointing is in train.py\nx: 1\n");
  REQUIRE(own.size() == 1);
  CHECK(own[0].own_line);
  CHECK(own[0].scope == Suppression::Scope::Line);

  const auto file = yaml("x: 1\n# launchlint: file-ignore[YAML001,FSDP]\n");
  REQUIRE(file.size() == 1);
  CHECK(file[0].scope == Suppression::Scope::File);
  CHECK(file[0].codes == std::vector<std::string>{"YAML001", "FSDP"});

  // noqa: codes separated by commas or spaces, up to the first word that is not a code.
  const auto noqa = yaml("x: 1  # noqa: FSDP001, LL004 E501 because of reasons ABC123\n");
  REQUIRE(noqa.size() == 1);
  CHECK(noqa[0].noqa);
  CHECK(noqa[0].codes == std::vector<std::string>{"FSDP001", "LL004", "E501"});
  CHECK(span(noqa[0].code_regions[2]) == "1:30-1:34");

  // Other tools' forms and launchlint's own spellings around it.
  CHECK(effective(yaml("x: 1  # noqa:\n")).empty());
  CHECK(effective(yaml("x: 1  # noqa: lowercase\n")).empty());
}

TEST_CASE("suppression: text that is not a suppression comment", "[suppression]") {
  CHECK(yaml("x: \"launchlint: ignore[FSDP001]\"\n").empty());              // no comment at all
  CHECK(yaml("url: http://h/#launchlint: ignore[FSDP001]\n").empty());       // '#' glued to a word: not a comment
  CHECK(yaml("x: 1  # see launchlint: ignore[FSDP001]\n").empty());          // text between '#' and the marker
  // launchlint's marker with a broken code list: suppresses nothing, and is reported (LL005).
  CHECK(malformed(yaml("x: 1  # launchlint: ignore FSDP001\n")));                // no brackets
  CHECK(malformed(yaml("x: 1  # launchlint: ignore[FSDP001\n")));                // unclosed
  CHECK(malformed(yaml("x: 1  # launchlint: ignore[]\n")));                      // no code
  CHECK(malformed(yaml("x: 1  # launchlint: disable[FSDP001]\n")));              // unknown verb
  CHECK(malformed(yaml("x: 1  # launchlint: ignore[FSDP-001]\n")));              // not a code list
}

TEST_CASE("suppression: positions count code points and survive CRLF", "[suppression]") {
  const auto s = yaml("name: \xc3\xa9t\xc3\xa9  # launchlint: ignore[FSDP001]\r\nx: 1\r\n");
  REQUIRE(s.size() == 1);
  CHECK(s[0].line == 1);
  CHECK(span(s[0].code_regions[0]) == "1:33-1:40");
  const auto second = yaml("a: 1\r\nb: 2  # launchlint: ignore[LL004]\r\n");
  REQUIRE(second.size() == 1);
  CHECK(second[0].line == 2);
  CHECK(span(second[0].code_regions[0]) == "2:28-2:33");
}

TEST_CASE("suppression: JSON uses a \"//\" key and only file-ignore", "[suppression]") {
  const std::string text = "{\n  \"//\": \"launchlint: file-ignore[DS001]\",\n  \"train_batch_size\": 30\n}\n";
  const auto s = find_suppressions(SourceFile("ds.json", text), true);
  REQUIRE(s.size() == 1);
  CHECK(s[0].scope == Suppression::Scope::File);
  CHECK(s[0].codes == std::vector<std::string>{"DS001"});
  CHECK(span(s[0].code_regions[0]) == "2:34-2:39");
  // A line ignore has nothing to attach to in JSON, and '#' is not a JSON comment.
  CHECK(effective(find_suppressions(SourceFile("ds.json", "{\"//\": \"launchlint: ignore[DS001]\"}\n"), true)).empty());
  CHECK(find_suppressions(SourceFile("ds.json", "{} # launchlint: file-ignore[DS001]\n"), true).empty());
}

TEST_CASE("suppression: code_matches takes codes, prefixes and ALL", "[suppression]") {
  using lint::rule::code_matches;
  CHECK(code_matches("FSDP001", "FSDP001"));
  CHECK(code_matches("FSDP", "FSDP001"));
  CHECK(code_matches("ALL", "LL004"));
  CHECK_FALSE(code_matches("FSDP002", "FSDP001"));
  CHECK_FALSE(code_matches("LL", "FSDP001"));
}

TEST_CASE("suppression in a run: same line, line above, file", "[suppression][driver]") {
  const std::vector<std::string> codes = {"FSDP001", "LL003", "LL004"};
  // Unsuppressed baseline: FSDP001 on the strategy line (5).
  CHECK(run_on("a.yaml", sgo_config(""), codes) == std::vector<Outcome>{{"FSDP001", 5, false, "5:27-5:40"}});
  // A trailing comment covers its own line.
  CHECK(run_on("a.yaml", sgo_config("  # launchlint: ignore[FSDP001]"), codes) ==
        std::vector<Outcome>{{"FSDP001", 5, true, "5:27-5:40"}});
  // A prefix covers every code under it; noqa works the same way.
  CHECK(run_on("a.yaml", sgo_config("  # launchlint: ignore[FSDP]"), codes) ==
        std::vector<Outcome>{{"FSDP001", 5, true, "5:27-5:40"}});
  CHECK(run_on("a.yaml", sgo_config("  # noqa: FSDP001"), codes) ==
        std::vector<Outcome>{{"FSDP001", 5, true, "5:27-5:40"}});
  // A comment alone on the line above covers the next line (the finding moves to line 6).
  CHECK(run_on("a.yaml", sgo_config("", "  # launchlint: ignore[FSDP001] checkpointing is in train.py\n"), codes) ==
        std::vector<Outcome>{{"FSDP001", 6, true, "6:27-6:40"}});
  // ... but not two lines down, and a trailing comment on the line above covers only its own line.
  CHECK(run_on("a.yaml", sgo_config("", "  # launchlint: ignore[FSDP001]\n  fsdp_offload_params: false\n"), codes) ==
        std::vector<Outcome>{{"LL004", 5, false, "5:24-5:31"}, {"FSDP001", 7, false, "7:27-7:40"}});
  CHECK(run_on("a.yaml", sgo_config("", "  fsdp_offload_params: false  # launchlint: ignore[FSDP001]\n"), codes) ==
        std::vector<Outcome>{{"LL004", 5, false, "5:52-5:59"}, {"FSDP001", 6, false, "6:27-6:40"}});
  // file-ignore anywhere in the file covers every line.
  CHECK(run_on("a.yaml", sgo_config("") + "# launchlint: file-ignore[FSDP001]\n", codes) ==
        std::vector<Outcome>{{"FSDP001", 5, true, "5:27-5:40"}});
  // Another code on the line does not suppress; enabled in the run, it is reported unused (LL004 at the code).
  CHECK(run_on("a.yaml", sgo_config("  # launchlint: ignore[LL003]"), codes) ==
        std::vector<Outcome>{{"FSDP001", 5, false, "5:27-5:40"}, {"LL004", 5, false, "5:63-5:68"}});
  // A code of a rule this run does not enable is not reported unused (`--select` must not flag the others).
  CHECK(run_on("a.yaml", sgo_config("  # launchlint: ignore[FSDP002]"), codes) ==
        std::vector<Outcome>{{"FSDP001", 5, false, "5:27-5:40"}});
}

TEST_CASE("suppression in a run: unknown codes and JSON", "[suppression][driver]") {
  const std::vector<std::string> codes = {"FSDP001", "LL003", "LL004"};
  // An unknown launchlint code is LL003 at the code itself; another tool's noqa code is not.
  CHECK(run_on("a.yaml", sgo_config("  # launchlint: ignore[FSDP001, FSPD001]"), codes) ==
        std::vector<Outcome>{{"FSDP001", 5, true, "5:27-5:40"}, {"LL003", 5, false, "5:72-5:79"}});
  CHECK(run_on("a.yaml", sgo_config("  # noqa: FSDP001, E501"), codes) ==
        std::vector<Outcome>{{"FSDP001", 5, true, "5:27-5:40"}});
  // A JSON file-ignore suppresses the DeepSpeed batch-size finding of the whole file.
  const std::string ds = "{\n  \"train_batch_size\": 30,\n  \"train_micro_batch_size_per_gpu\": 4,\n"
                         "  \"gradient_accumulation_steps\": 2,\n  \"zero_optimization\": {\"stage\": 2}\n}\n";
  const auto plain = run_on("ds.json", ds, {"DS001", "LL004"});
  REQUIRE(plain.size() == 1);
  CHECK(plain[0].code == "DS001");
  CHECK_FALSE(plain[0].suppressed);
  const std::string ignored = "{\n  \"//\": \"launchlint: file-ignore[DS001]\",\n" + ds.substr(2);
  const auto got = run_on("ds.json", ignored, {"DS001", "LL004"});
  REQUIRE(got.size() == 1);
  CHECK(got[0].code == "DS001");
  CHECK(got[0].suppressed);
}
