// Shared helpers of the data-driven tests: run the engine on fixture files and read inline expectations.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "lint/driver/driver.hpp"
#include "rules/registry.hpp"

#ifndef LAUNCHLINT_SOURCE_DIR
#define LAUNCHLINT_SOURCE_DIR "."
#endif

namespace lint::testing {

/// One expected (or produced) finding: file (relative to the case root), line (0 = whole file), code.
using Finding = std::tuple<std::string, std::uint32_t, std::string>;

/// Inline expectations of a fixture file or folder: `# expect: CODE[, CODE]` on the offending line,
/// `# expect-next-line: CODE`, `# expect-file: CODE`; JSON uses a sidecar `<file>.expect` with lines
/// `LINE CODE` (LINE 0 = whole file). `# fixture-select: CODE ...` enables more rules for the case.
struct Expectations {
  std::multiset<Finding> findings;
  std::vector<std::string> extra_select;
};

Expectations read_expectations(const std::filesystem::path& case_path);

/// Lints `case_path` (a file or a folder) with only `codes` enabled, as `launchlint --isolated` would.
std::multiset<Finding> lint_case(const std::filesystem::path& case_path, const std::vector<std::string>& codes,
                                 std::vector<rule::Diagnostic>* raw = nullptr);

std::string describe(const std::multiset<Finding>& findings);

/// Where the snapshot of fixture case `fixtures/<slug>/<case_name>` lives: `tests/snapshots/<slug>/<case_name>.snap`.
std::filesystem::path snapshot_path(std::string_view slug, std::string_view case_name);

/// The snapshot text of one case: a header naming the case and the selected codes, then one line per diagnostic,
/// `FILE:LINE:COL-ENDLINE:ENDCOL: CODE [severity] message` (paths relative to the case root, a whole-file finding
/// without a position as `FILE:`), each related location below it as `  = FILE:LINE:COL-ENDLINE:ENDCOL: message`;
/// `(no findings)` for a clean case.
std::string render_snapshot(const std::filesystem::path& case_path, std::string_view case_label,
                            const std::vector<std::string>& codes, std::vector<rule::Diagnostic> diagnostics);

/// True when the run should rewrite goldens and snapshots instead of comparing (`UPDATE_GOLDEN=1`).
bool update_golden();

/// A file's whole text ("" when it cannot be read).
std::string read_text(const std::filesystem::path& path);

}  // namespace lint::testing
