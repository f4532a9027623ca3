#include "lint/fix/fix.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace lint::fix {

namespace fs = std::filesystem;

bool applicable(const rule::Fix& fix, bool unsafe) {
  return !fix.edits.empty() && (fix.safety == rule::FixSafety::Safe || unsafe);
}

std::string apply_edits(std::string_view text, const std::vector<rule::Edit>& edits) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  for (const rule::Edit& e : edits) {
    const std::size_t b = std::min(e.begin, text.size());
    const std::size_t en = std::min(std::max(e.end, b), text.size());
    if (b < at) continue;  // overlapping: never produced by choose()
    out.append(text.substr(at, b - at));
    out += e.replacement;
    at = en;
  }
  out.append(text.substr(std::min(at, text.size())));
  return out;
}

std::vector<FileChange> choose(const std::vector<rule::Diagnostic>& diagnostics, const source::SourceMap& sources,
                               bool unsafe) {
  struct Pending {
    std::vector<rule::Edit> edits;
    std::vector<std::string> applied;
  };
  std::map<std::string, Pending> by_file;
  std::set<std::vector<rule::Edit>> seen;  // one fix reported by several launches applies once
  for (const rule::Diagnostic& d : diagnostics) {
    if (d.suppressed || !d.fix || !applicable(*d.fix, unsafe)) continue;
    const rule::Fix& fix = *d.fix;
    if (!seen.insert(fix.edits).second) continue;
    // A fix is all-or-nothing; it edits one file (the first edit's) and its edits must be in range.
    const std::string& path = fix.edits.front().path;
    auto src = sources.find(path);
    if (src == sources.end() || src->second == nullptr) continue;
    const std::size_t size = src->second->text().size();
    bool ok = true;
    for (const rule::Edit& e : fix.edits) ok &= e.path == path && e.begin <= e.end && e.end <= size;
    if (!ok) continue;
    Pending& p = by_file[path];
    // Edits that overlap or touch a chosen one wait for the next pass (their offsets would be stale).
    const auto clashes = [&](const rule::Edit& e) {
      return std::any_of(p.edits.begin(), p.edits.end(),
                         [&](const rule::Edit& o) { return e.begin <= o.end && o.begin <= e.end; });
    };
    if (std::any_of(fix.edits.begin(), fix.edits.end(), clashes)) continue;
    std::vector<rule::Edit> mine = fix.edits;
    std::sort(mine.begin(), mine.end(), [](const rule::Edit& a, const rule::Edit& b) { return a.begin < b.begin; });
    bool self_overlap = false;
    for (std::size_t i = 1; i < mine.size(); ++i) self_overlap |= mine[i].begin < mine[i - 1].end;
    if (self_overlap) continue;
    p.edits.insert(p.edits.end(), mine.begin(), mine.end());
    p.applied.push_back(d.code + " " + fix.description);
  }
  std::vector<FileChange> out;
  for (auto& [path, p] : by_file) {
    if (p.edits.empty()) continue;
    std::sort(p.edits.begin(), p.edits.end(),
              [](const rule::Edit& a, const rule::Edit& b) { return a.begin < b.begin; });
    const std::string& before = sources.at(path)->text();
    FileChange c{path, before, apply_edits(before, p.edits), std::move(p.applied)};
    if (c.after != c.before) out.push_back(std::move(c));
  }
  return out;
}

Outcome fix_until_stable(const rule::RuleTable& rules, driver::RunOptions options, bool unsafe, int max_passes) {
  Outcome out;
  std::map<std::string, FileChange> total;  // by path: the first `before`, the last `after`
  out.after = driver::run(rules, options);
  for (int pass = 0; pass < max_passes; ++pass) {
    std::vector<FileChange> changes = choose(out.after.diagnostics, out.after.sources, unsafe);
    if (changes.empty()) break;
    for (FileChange& c : changes) {
      out.fixes_applied += c.applied.size();
      const std::string key = fs::path(c.path).lexically_normal().generic_string();
      options.overlay[key] = c.after;
      auto it = total.find(c.path);
      if (it == total.end()) {
        total.emplace(c.path, std::move(c));
      } else {
        it->second.after = std::move(c.after);
        for (std::string& a : c.applied) it->second.applied.push_back(std::move(a));
      }
    }
    out.after = driver::run(rules, options);
  }
  for (auto& [path, c] : total) {
    if (c.after != c.before) out.changes.push_back(std::move(c));
  }
  return out;
}

}  // namespace lint::fix
