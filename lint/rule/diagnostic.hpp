// What a rule reports.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/source/source_file.hpp"

namespace lint::rule {

enum class Severity : std::uint8_t { Info = 0, Warning = 1, Error = 2 };

std::string_view to_string(Severity s);
std::optional<Severity> parse_severity(std::string_view text);

/// A location in some file of the launch, with a message saying what it is (SARIF relatedLocations).
struct RelatedLocation {
  std::string path;
  source::Region region;
  std::string message;
};

struct Diagnostic {
  std::string code;      ///< e.g. FSDP001
  std::string slug;      ///< e.g. shard-grad-op-without-activation-checkpointing
  Severity severity = Severity::Warning;
  std::string message;   ///< one or more sentences, ending with a period
  std::string path;      ///< the file, as displayed (relative to the working directory when possible)
  source::Region region; ///< primary location; invalid (line 0) for a whole-file finding without a position
  std::vector<RelatedLocation> related;
  std::string setting;   ///< the canonical setting concerned, for line-independent fingerprints (may be empty)
  bool suppressed = false;
};

/// Orders by path, position, code: the order of every reporter.
bool operator<(const Diagnostic& a, const Diagnostic& b);

}  // namespace lint::rule
