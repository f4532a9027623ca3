// A `deepspeed` launcher hostfile (`-H/--hostfile`), read as DeepSpeed's runner reads it: one `host slots=N` per
// line, `#` comments and blank lines skipped (DeepSpeed 0.19.5 deepspeed/launcher/runner.py:230-270).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lint/source/source_file.hpp"

namespace lint::model {

struct HostfileHost {
  std::string name;
  std::int64_t slots = 0;
  source::Region region;  ///< the line
};

/// The hosts in file order, or nullopt when the runner would reject the file (a bad line, a host twice, no host):
/// then nothing else about it is claimed.
std::optional<std::vector<HostfileHost>> read_hostfile(const source::SourceFile& file);

}  // namespace lint::model
