// Applying fixes: choosing non-overlapping edits, iterating until nothing more is fixable (in memory, through the
// driver's overlay), unified diffs, and atomic writes that keep every byte the edits do not touch.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "lint/driver/driver.hpp"
#include "lint/rule/diagnostic.hpp"

namespace lint::fix {

/// True when `fix` may be applied: safe fixes always, unsafe ones only when asked.
bool applicable(const rule::Fix& fix, bool unsafe);

/// `text` with `edits` applied. Edits must be sorted by `begin` and must not overlap (see choose()).
std::string apply_edits(std::string_view text, const std::vector<rule::Edit>& edits);

/// One file's new text.
struct FileChange {
  std::string path;
  std::string before;  ///< the text as loaded (no BOM)
  std::string after;
  std::vector<std::string> applied;  ///< "CODE description" of each fix applied, in order
};

/// Picks the applicable fixes of `diagnostics` (suppressed ones never), skipping any fix with an edit that
/// overlaps or touches an edit already chosen (a later pass takes it), and applies them per file.
std::vector<FileChange> choose(const std::vector<rule::Diagnostic>& diagnostics, const source::SourceMap& sources,
                               bool unsafe);

/// The outcome of fixing: the changed files (from the first text to the last) and the run on the fixed text.
struct Outcome {
  std::vector<FileChange> changes;
  driver::RunResult after;
  std::size_t fixes_applied = 0;
};

/// Runs the pipeline, applies the chosen fixes in memory (as an overlay on the files), and runs again, until no
/// fix applies or `max_passes` is reached. Nothing is written.
Outcome fix_until_stable(const rule::RuleTable& rules, driver::RunOptions options, bool unsafe, int max_passes = 10);

/// A unified diff (`--- a/PATH`, `+++ b/PATH`, hunks with 3 lines of context) from `before` to `after`.
std::string unified_diff(const std::string& path, std::string_view before, std::string_view after);

/// Writes `change.after` over `change.path`: the file on disk must still hold `change.before` (after a UTF-8 BOM,
/// which is kept); the text goes to a temporary file in the same folder, is fsync'ed and renamed over the file,
/// keeping its permissions. On failure the file is untouched and `error` says why.
bool write_change(const FileChange& change, std::string& error);

}  // namespace lint::fix
