// What a rule reports.
#pragma once

#include <compare>
#include <cstddef>
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

/// One text edit of a fix: replace bytes [begin, end) of `path` (offsets into the text as loaded, without a
/// UTF-8 BOM) with `replacement`. An empty range inserts; an empty replacement deletes.
struct Edit {
  std::string path;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string replacement;
  friend auto operator<=>(const Edit&, const Edit&) = default;
  friend bool operator==(const Edit&, const Edit&) = default;
};

/// Whether applying a fix keeps what the file means. Safe: it writes what the file evidently says (the same
/// number as a number, a dropped duplicate removed, an unambiguous typo of a key). Unsafe: it picks a value for
/// the user (the closest valid enum member, a recomputed batch size); applied only with --unsafe-fixes.
enum class FixSafety : std::uint8_t { Safe, Unsafe };

/// A fix: edits in one file, applied together or not at all.
struct Fix {
  std::string description;  ///< imperative, e.g. "Rename `fsdp_sharding_stratgy` to `fsdp_sharding_strategy`"
  FixSafety safety = FixSafety::Safe;
  std::vector<Edit> edits;
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
  std::optional<Fix> fix;  ///< a mechanical fix, when the rule knows one
};

/// Orders by path, position, code: the order of every reporter.
bool operator<(const Diagnostic& a, const Diagnostic& b);

}  // namespace lint::rule
