// A private temporary folder per fuzzing process, emptied before each input (the pipeline reads real files).
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace lint::fuzz {

inline const std::filesystem::path& temp_root() {
  static const std::filesystem::path root = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "launchlint-fuzz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) std::abort();
    const std::filesystem::path p(tmpl);
    std::atexit([] { std::error_code ec; std::filesystem::remove_all(temp_root(), ec); });
    return p;
  }();
  return root;
}

/// An empty folder `temp_root()/w` for this input.
inline std::filesystem::path fresh_dir() {
  const std::filesystem::path dir = temp_root() / "w";
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  std::filesystem::create_directories(dir);
  return dir;
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace lint::fuzz
