// Shared by the fuzz harnesses: one input as a SourceFile, and a multi-file input split into files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lint::fuzz {

inline std::string as_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

/// A multi-file input: files separated by a line `----- NAME`, where NAME picks the file's name from a fixed set
/// (so every reader and the binding between files is reached). Text before the first separator is
/// `accelerate.yaml`.
inline std::vector<std::pair<std::string, std::string>> split_files(std::string_view text) {
  static const char* const kNames[] = {"accelerate.yaml", "ds_config.json", "train.py",  "launch.sh",
                                       "job.toml",        "fsdp.yml",       "Makefile", "run.sbatch"};
  std::vector<std::pair<std::string, std::string>> files;
  std::string name = kNames[0];
  std::size_t pos = 0;
  std::string current;
  while (pos <= text.size()) {
    const std::size_t eol = text.find('\n', pos);
    const std::size_t end = eol == std::string_view::npos ? text.size() : eol + 1;
    const std::string_view line = text.substr(pos, end - pos);
    if (line.starts_with("----- ")) {
      files.emplace_back(name, std::move(current));
      current.clear();
      std::size_t h = 0;
      for (char c : line.substr(6)) h = h * 31 + static_cast<unsigned char>(c);
      name = kNames[h % (sizeof kNames / sizeof kNames[0])];
      // Two files of one name: a folder each.
      name = "d" + std::to_string(files.size()) + "/" + name;
    } else {
      current.append(line);
    }
    if (eol == std::string_view::npos) break;
    pos = end;
  }
  files.emplace_back(name, std::move(current));
  return files;
}

}  // namespace lint::fuzz
