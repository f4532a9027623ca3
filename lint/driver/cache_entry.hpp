// The payload of a result-cache entry (lint/driver/cache.hpp): a compact binary form of a run's findings, the
// documents it read and the files it depends on. Strings are stored once, in a table, and referred to by index
// (a run of thousands of findings repeats a few codes and paths); integers are LEB128 varints. Decoding checks
// every length and index and throws std::out_of_range on anything malformed, which the cache treats as a miss
// (the entry's header also carries the payload's SHA-256). Any bytes round-trip, UTF-8 or not.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/rule/diagnostic.hpp"

namespace lint::driver::cache_entry {

/// A file the run looked at beyond the discovered ones, with its state (a content hash, "absent", ...).
struct Dependency {
  std::string path;
  std::string state;
};

/// What the reporters need of a document of the run.
struct DocRecord {
  std::string path;
  int kind = 0;                           ///< model::DocKind
  std::optional<std::string> read_error;  ///< why it could not be read, if so
  bool quotable = false;                  ///< its text was read (a report may quote it); false for files never read
};

struct Entry {
  std::size_t files_checked = 0;
  std::vector<Dependency> depends_on;
  std::vector<DocRecord> documents;
  std::vector<rule::Diagnostic> diagnostics;
};

/// `entry` with `diagnostics` in place of entry.diagnostics (so that a run's findings are not copied to be written).
std::string encode(const Entry& entry, const std::vector<rule::Diagnostic>& diagnostics);

/// The entry in `bytes`; throws std::out_of_range when they are not one encode() wrote.
Entry decode(std::string_view bytes);

}  // namespace lint::driver::cache_entry
