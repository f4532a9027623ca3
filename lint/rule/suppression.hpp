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
};

/// Finds the suppression comments of a file. `json` selects the `"//"` key form.
std::vector<Suppression> find_suppressions(const source::SourceFile& file, bool json);

/// True when `pattern` (a code like FSDP001 or a prefix like FSDP) covers `code`.
bool code_matches(std::string_view pattern, std::string_view code);

}  // namespace lint::rule
