#include "lint/fix/cli.hpp"

#include "lint/fix/fix.hpp"

namespace lint::fix {

bool parse_cli_flag(std::string_view arg, CliFlags& flags) {
  if (arg == "--fix")
    flags.fix = true;
  else if (arg == "--unsafe-fixes")
    flags.unsafe = true;
  else if (arg == "--diff")
    flags.diff = true;
  else if (arg == "--show-fixes")
    flags.show_fixes = true;
  else
    return false;
  return true;
}

std::string_view cli_help() {
  return R"(Fixes:
  --fix                 apply the safe fixes, writing each changed file atomically; then report what is left
  --unsafe-fixes        with --fix or --diff, apply the unsafe fixes too (they pick a value for you)
  --diff                print the changes --fix would make as a unified diff, change nothing (exit 1 if any)
  --show-fixes          after the findings, list the fixes applied or available
)";
}

bool run(const rule::RuleTable& rules, const driver::RunOptions& options, const CliFlags& flags,
         driver::RunResult& result, std::vector<std::string>& applied, std::ostream& out, std::ostream& err,
         int& exit_code) {
  if (options.read_stdin) {
    err << "launchlint: error: --fix and --diff need files, not standard input\n";
    exit_code = 2;
    return false;
  }
  Outcome outcome = fix_until_stable(rules, options, flags.unsafe);
  for (const FileChange& c : outcome.changes) {
    for (const std::string& a : c.applied) applied.push_back(c.path + ": " + a);
  }
  if (flags.diff) {
    for (const FileChange& c : outcome.changes) out << unified_diff(c.path, c.before, c.after);
    err << "launchlint: "
        << (outcome.changes.empty() ? "no fixes available"
                                    : "would fix " + std::to_string(outcome.fixes_applied) + " problem(s) in " +
                                          std::to_string(outcome.changes.size()) + " file(s)")
        << "\n";
    exit_code = outcome.changes.empty() ? 0 : 1;
    return false;
  }
  std::size_t written = 0;
  for (const FileChange& c : outcome.changes) {
    std::string error;
    if (write_change(c, error)) {
      ++written;
    } else {
      err << "launchlint: error: " << error << "\n";
      exit_code = 2;
    }
  }
  if (exit_code == 2) return false;
  if (written > 0) err << "launchlint: fixed " << outcome.fixes_applied << " problem(s) in " << written << " file(s)\n";
  result = std::move(outcome.after);
  return true;
}

void write_fix_list(std::ostream& out, const std::vector<rule::Diagnostic>& diagnostics, const CliFlags& flags,
                    const std::vector<std::string>& applied) {
  if (flags.fix) {
    out << "\nFixed " << applied.size() << " problem(s):\n";
    for (const std::string& a : applied) out << "  " << a << "\n";
  }
  std::size_t available = 0;
  std::size_t unsafe_only = 0;
  std::string list;
  for (const rule::Diagnostic& d : diagnostics) {
    if (d.suppressed || !d.fix || d.fix->edits.empty()) continue;
    const bool unsafe = d.fix->safety == rule::FixSafety::Unsafe;
    (unsafe && !flags.unsafe ? unsafe_only : available)++;
    list += "  " + d.path + ":" + std::to_string(d.region.begin.line) + ":" + std::to_string(d.region.begin.column) +
            ": " + d.code + " " + d.fix->description + (unsafe ? " [unsafe]" : "") + "\n";
  }
  if (list.empty()) return;
  out << "\nFixes available (" << available << " with --fix"
      << (flags.unsafe ? "" : ", " + std::to_string(unsafe_only) + " more with --unsafe-fixes") << "):\n"
      << list;
}

}  // namespace lint::fix
