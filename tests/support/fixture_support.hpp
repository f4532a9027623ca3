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

}  // namespace lint::testing
