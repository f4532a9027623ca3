// The command-line side of fixes: --fix, --unsafe-fixes, --diff, --show-fixes. Kept out of main.cpp so that the
// argument parser only has to set these flags and call run().
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "lint/driver/driver.hpp"

namespace lint::fix {

struct CliFlags {
  bool fix = false;         ///< --fix: apply safe fixes (and unsafe ones with --unsafe-fixes), write the files
  bool unsafe = false;      ///< --unsafe-fixes: unsafe fixes too
  bool diff = false;        ///< --diff: print what --fix would change as a unified diff; write nothing
  bool show_fixes = false;  ///< --show-fixes: list the fixes applied (or available) after the findings

  [[nodiscard]] bool rewrites() const { return fix || diff; }
};

/// Sets the flag `arg` names; false when `arg` is not a fix flag.
bool parse_cli_flag(std::string_view arg, CliFlags& flags);

/// The help lines of the flags.
std::string_view cli_help();

/// With --fix or --diff: fixes (in memory, until stable) and, for --fix, writes each changed file atomically; for
/// --diff prints the diffs to `out`. Returns the run on the fixed text in `result` (for the reporters; with --diff
/// the findings before fixing). Returns false with `exit_code` set when the command is done (--diff) or failed.
/// `applied` receives "PATH: CODE description" for each fix applied (or, with --diff, that would be).
bool run(const rule::RuleTable& rules, const driver::RunOptions& options, const CliFlags& flags,
         driver::RunResult& result, std::vector<std::string>& applied, std::ostream& out, std::ostream& err,
         int& exit_code);

/// --show-fixes: lists the fixes of `diagnostics` that --fix would apply (safe, or any with --unsafe-fixes) and
/// the ones that need --unsafe-fixes, after the report. With --fix, `applied` is listed instead.
void write_fix_list(std::ostream& out, const std::vector<rule::Diagnostic>& diagnostics, const CliFlags& flags,
                    const std::vector<std::string>& applied);

}  // namespace lint::fix
