// The result cache: a hit answers exactly what a run would, any change to a file the run depended on is a miss,
// and a corrupt or foreign entry is ignored.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "lint/driver/cache.hpp"
#include "lint/report/reporter.hpp"
#include "lint/source/sha256.hpp"
#include "rules/registry.hpp"

namespace fs = std::filesystem;

namespace {

struct Project {
  fs::path dir;
  fs::path cache;
  Project() : dir(fs::temp_directory_path() / ("launchlint-cache-" + std::to_string(::getpid()))) {
    fs::remove_all(dir);
    fs::create_directories(dir / "repo");
    cache = dir / "cache";
    write("repo/fsdp.yaml", "distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n"
                            "  fsdp_sharding_strategy: SHARD_GRAD_OP\n"
                            "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n");
    write("repo/launch.sh", "accelerate launch --config_file fsdp.yaml train.py\n");
  }
  ~Project() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  void write(const std::string& rel, const std::string& text) const { std::ofstream(dir / rel) << text; }
  /// Lints only launch.sh: fsdp.yaml and train.py are read (or looked for) through the launch command.
  [[nodiscard]] lint::driver::RunOptions options() const {
    lint::driver::RunOptions o;
    o.paths = {(dir / "repo" / "launch.sh").string()};
    o.jobs = 1;
    return o;
  }
  [[nodiscard]] lint::driver::RunResult run(lint::driver::CacheOutcome& outcome) const {
    return lint::driver::run_cached(lint::rules::rule_table(), options(), {cache.string(), ""}, &outcome);
  }
};

std::string rendered(const lint::driver::RunResult& r, lint::report::Format format) {
  lint::report::ReportInput in;
  in.diagnostics = &r.diagnostics;
  in.rules = &lint::rules::rule_table();
  in.sources = &r.sources;
  in.srcroot = "/";
  in.files_checked = r.files_checked;
  std::ostringstream out;
  lint::report::write(format, out, in);
  return out.str();
}

std::string codes(const lint::driver::RunResult& r) {
  std::string out;
  for (const auto& d : r.diagnostics) out += d.code + " ";
  return out;
}

fs::path only_entry(const fs::path& cache) {
  fs::path found;
  for (const auto& e : fs::recursive_directory_iterator(cache))
    if (e.is_regular_file() && e.path().filename().string().size() == 64) found = e.path();
  return found;
}

}  // namespace

TEST_CASE("a second run on unchanged files is answered from the cache, identically", "[driver][cache]") {
  const Project p;
  lint::driver::CacheOutcome first;
  lint::driver::CacheOutcome second;
  const auto a = p.run(first);
  const auto b = p.run(second);
  CHECK_FALSE(first.hit);
  CHECK(first.written);
  CHECK(second.hit);
  CHECK_FALSE(second.written);
  REQUIRE(codes(a).find("FSDP001") != std::string::npos);
  CHECK(codes(a) == codes(b));
  CHECK(b.files_checked == a.files_checked);
  for (const auto f : {lint::report::Format::Text, lint::report::Format::Json, lint::report::Format::Sarif,
                       lint::report::Format::Github, lint::report::Format::Junit})
    CHECK(rendered(a, f) == rendered(b, f));
  CHECK(fs::exists(p.cache / "CACHEDIR.TAG"));
  CHECK(fs::exists(p.cache / ".gitignore"));
}

TEST_CASE("an edit to a file a launch binds, or a file appearing, is a miss", "[driver][cache]") {
  const Project p;
  lint::driver::CacheOutcome o;
  const auto before = p.run(o);
  REQUIRE(codes(before).find("FSDP001") != std::string::npos);
  // fsdp.yaml is not a linted path: the launch reads it. Turning on activation checkpointing silences FSDP001.
  p.write("repo/fsdp.yaml", "distributed_type: FSDP\nnum_processes: 8\nfsdp_config:\n"
                            "  fsdp_sharding_strategy: SHARD_GRAD_OP\n"
                            "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n"
                            "  fsdp_activation_checkpointing: true\n");
  const auto after = p.run(o);
  CHECK_FALSE(o.hit);
  CHECK(codes(after).find("FSDP001") == std::string::npos);
  CHECK(codes(after) == codes(lint::driver::run(lint::rules::rule_table(), p.options())));
  // train.py was looked for and missing (LL006); once it exists the entry no longer answers.
  REQUIRE(codes(after).find("LL006") != std::string::npos);
  (void)p.run(o);
  REQUIRE(o.hit);
  p.write("repo/train.py", "print('hello')\n");
  const auto with_script = p.run(o);
  CHECK_FALSE(o.hit);
  CHECK(codes(with_script).find("LL006") == std::string::npos);
}

TEST_CASE("a corrupt, tampered or foreign entry is ignored", "[driver][cache]") {
  const Project p;
  lint::driver::CacheOutcome o;
  const auto fresh = p.run(o);
  const fs::path entry = only_entry(p.cache);
  REQUIRE(!entry.empty());
  std::string text;
  {
    std::ifstream in(entry, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const auto check_miss = [&](const std::string& content) {
    std::ofstream(entry, std::ios::binary | std::ios::trunc) << content;
    const auto r = p.run(o);
    CHECK_FALSE(o.hit);
    CHECK(codes(r) == codes(fresh));
    CHECK(rendered(r, lint::report::Format::Text) == rendered(fresh, lint::report::Format::Text));
  };
  check_miss(text.substr(0, text.size() / 2));  // truncated
  check_miss("");
  check_miss("\x01\x02not json at all");
  std::string tampered = text;
  tampered.replace(tampered.find("FSDP001"), 7, "FSDP002");  // the payload no longer matches its checksum
  check_miss(tampered);
  std::string foreign = text;
  foreign.replace(foreign.find(LAUNCHLINT_VERSION), std::string(LAUNCHLINT_VERSION).size(), "0.0.0-other");
  check_miss(foreign);
  // After a miss the entry is rewritten, and answers again.
  (void)p.run(o);
  CHECK(o.hit);
}

TEST_CASE("a file rewritten with the same size and modification time is still a miss", "[driver][cache]") {
  // Files are not read again when their stamp (size, times, inode) is the one recorded with their hash. Files
  // changed in the last two seconds are never recorded (an edit within the clock's resolution), so wait that out.
  const Project p;
  p.write("repo/train.py", "print('hello')\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  lint::driver::CacheOutcome o;
  (void)p.run(o);
  REQUIRE(o.written);
  (void)p.run(o);
  REQUIRE(o.hit);
  const fs::path launch = p.dir / "repo" / "launch.sh";
  const auto mtime = fs::last_write_time(launch);
  // The same size, the same modification time: only the change time (and the content) differ.
  p.write("repo/launch.sh", "accelerate launch --config_file fsdp.yaml tra1n.py\n");
  fs::last_write_time(launch, mtime);
  const auto r = p.run(o);
  CHECK_FALSE(o.hit);
  CHECK(codes(r) == codes(lint::driver::run(lint::rules::rule_table(), p.options())));
  CHECK(codes(r).find("LL006") != std::string::npos);  // tra1n.py is missing
}

TEST_CASE("a hit quotes a file that is not UTF-8 as the run did", "[driver][cache]") {
  // The file is read but cannot be linted (LL002 with the position of the bad byte): the text report quotes its
  // line, from the cache as from a run.
  const Project p;
  p.write("repo/bad.yaml", "distributed_type: FSDP\nname: \"\xff\"\n");
  lint::driver::RunOptions o = p.options();
  o.paths = {(p.dir / "repo").string()};
  lint::driver::CacheOutcome first;
  lint::driver::CacheOutcome second;
  const auto a = lint::driver::run_cached(lint::rules::rule_table(), o, {p.cache.string(), ""}, &first);
  const auto b = lint::driver::run_cached(lint::rules::rule_table(), o, {p.cache.string(), ""}, &second);
  REQUIRE(second.hit);
  const std::string text = rendered(a, lint::report::Format::Text);
  REQUIRE(text.find("LL002") != std::string::npos);
  REQUIRE(text.find("2 | name:") != std::string::npos);
  CHECK(rendered(b, lint::report::Format::Text) == text);
  CHECK(rendered(b, lint::report::Format::Sarif) == rendered(a, lint::report::Format::Sarif));
}

TEST_CASE("a file outside the project that a launch names is never read to key the cache", "[driver][cache]") {
  // SECURITY.md: launchlint reads nothing outside the project. The cache records only whether such a file is
  // there: its content is not hashed, and a change to it does not matter.
  const Project p;
  fs::create_directories(p.dir / "repo" / ".git");
  p.write("secret.yaml", "token: hunter2\n");
  p.write("repo/launch.sh", "accelerate launch --config_file ../secret.yaml train.py\n");
  lint::driver::CacheOutcome o;
  const auto a = p.run(o);
  REQUIRE(o.written);
  std::string entry;
  {
    std::ifstream in(only_entry(p.cache), std::ios::binary);
    entry.assign(std::istreambuf_iterator<char>(in), {});
  }
  CHECK(entry.find(lint::source::sha256_hex("token: hunter2\n")) == std::string::npos);
  CHECK(entry.find("hunter2") == std::string::npos);
  p.write("secret.yaml", "token: changed\n");
  const auto b = p.run(o);
  CHECK(o.hit);
  CHECK(codes(b) == codes(a));
  fs::remove(p.dir / "secret.yaml");
  (void)p.run(o);
  CHECK_FALSE(o.hit);  // its presence is part of what the run saw
}
