// Suppression comments: `# launchlint: ignore[CODE, ...] reason`, `# launchlint: file-ignore[...]`, `# noqa: CODE`,
// and JSON's top-level `"//": "launchlint: file-ignore[CODE]"`.
#pragma once

#include <string>
#include <vector>

#include "lint/source/source_file.hpp"

namespace lint::rule {

struct Suppression {
  enum class Scope : std::uint8_t { Line, File };
  Scope scope = Scope::Line;
  std::uint32_t line = 0;             ///< the comment's line
  bool own_line = false;              ///< the comment is alone on its line: it covers the next line too
  std::vector<std::string> codes;     ///< as written (codes or prefixes)
  std::vector<source::Region> code_regions;
  source::Region region;              ///< the whole comment
  bool noqa = false;                  ///< `# noqa:` form
  std::vector<bool> used;             ///< per code
  /// A directive that suppresses nothing because it is malformed or names no code (LL005): why, or "".
  std::string problem;
  /// `# noqa` without codes: another tool's blanket form, which launchlint does not honour. It is a problem only
  /// where it sits on a line with a launchlint finding (`covers_finding`, set by the driver).
  bool bare_noqa = false;
  bool covers_finding = false;
};

/// Finds the suppression comments of a file. `json` selects the `"//"` key form. Malformed and code-less
/// directives are returned too, with `problem` set and no codes.
std::vector<Suppression> find_suppressions(const source::SourceFile& file, bool json);

/// True when `pattern` (a code like FSDP001 or a prefix like FSDP) covers `code`.
bool code_matches(std::string_view pattern, std::string_view code);

}  // namespace lint::rule
