// Discovery: .gitignore files honoured at every level, at a cost linear in files and .gitignore files.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "lint/driver/driver.hpp"

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("launchlint-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

TEST_CASE("nested .gitignore files apply to their own folder and below", "[driver][discover]") {
  const TempDir tmp("discover-nested");
  fs::create_directories(tmp.path / "a" / "b");
  fs::create_directories(tmp.path / "c");
  std::ofstream(tmp.path / ".gitignore") << "*.json\n";
  std::ofstream(tmp.path / "a" / ".gitignore") << "skip.yaml\n!keep.json\n";
  for (const char* f : {"top.yaml", "top.json", "a/skip.yaml", "a/keep.json", "a/b/skip.yaml", "a/b/x.json",
                        "c/skip.yaml", "c/y.json"})
    std::ofstream(tmp.path / f) << "x: 1\n";
  std::ofstream(tmp.path / "c" / "keep.json") << "{}\n";
  const std::string root = tmp.path.string();
  std::vector<std::string> got = lint::driver::discover({root}, {}, true, nullptr);
  for (std::string& p : got) p = fs::path(p).lexically_relative(tmp.path).generic_string();
  CHECK(got == std::vector<std::string>{"a/keep.json", "c/skip.yaml", "top.yaml"});
}

TEST_CASE("discovery is linear in files and .gitignore files", "[driver][discover]") {
  // 300 sibling folders, each with its own .gitignore of two rules and two files: every entry is matched against
  // the .gitignore files of the folders above it only (here: its own and the root's), so the files consulted and
  // rules evaluated stay a small multiple of the entries. Consulting every .gitignore of the tree for every entry
  // (the quadratic walk) would cost about 1,200 x 300.
  const TempDir tmp("discover-linear");
  constexpr int kFolders = 300;
  std::ofstream(tmp.path / ".gitignore") << "*.log\n";
  for (int i = 0; i < kFolders; ++i) {
    const fs::path d = tmp.path / ("team" + std::to_string(i));
    fs::create_directories(d);
    std::ofstream(d / ".gitignore") << "secret.yaml\nbuild/\n";
    std::ofstream(d / "config.yaml") << "x: 1\n";
    std::ofstream(d / "secret.yaml") << "x: 1\n";
  }
  const std::size_t before = lint::driver::ignore_rule_evaluations();
  const std::vector<std::string> got = lint::driver::discover({tmp.path.string()}, {}, true, nullptr);
  const std::size_t evaluations = lint::driver::ignore_rule_evaluations() - before;
  CHECK(got.size() == static_cast<std::size_t>(kFolders));
  // Entries: 300 folders + 900 files (.gitignore, config, secret) = 1,200; each consults at most 2 .gitignore
  // files and 3 rules.
  CHECK(evaluations <= 6U * 1200U);
}
