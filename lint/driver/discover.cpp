// File discovery: directories walked without following symlinks, .gitignore files honoured, excludes applied.
#include <algorithm>
#include <atomic>
#include <memory>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "lint/driver/driver.hpp"
#include "lint/source/read_file.hpp"

namespace lint::driver {

namespace fs = std::filesystem;

namespace {

bool glob_impl(std::string_view p, std::string_view s) {
  // Iterative matcher with backtracking for '*' (single segment) and '**' (any depth).
  std::size_t pi = 0;
  std::size_t si = 0;
  std::size_t star_p = std::string_view::npos;
  std::size_t star_s = 0;
  bool star_crosses = false;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '*') {
      const bool dbl = pi + 1 < p.size() && p[pi + 1] == '*';
      pi += dbl ? 2 : 1;
      if (dbl && pi < p.size() && p[pi] == '/') ++pi;  // "**/" also matches zero directories
      star_p = pi;
      star_s = si;
      star_crosses = dbl;
      continue;
    }
    if (pi < p.size() && (p[pi] == '?' ? s[si] != '/' : p[pi] == s[si])) {
      ++pi;
      ++si;
      continue;
    }
    if (star_p != std::string_view::npos && (star_crosses || s[star_s] != '/')) {
      ++star_s;
      si = star_s;
      pi = star_p;
      continue;
    }
    return false;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

struct IgnoreRule {
  std::string pattern;
  bool negate = false;
  bool dir_only = false;
  bool anchored = false;
};

struct IgnoreSet {
  std::string base;  // directory (relative, "" for root) the .gitignore lives in
  std::vector<IgnoreRule> rules;
};

std::vector<IgnoreRule> read_gitignore(const fs::path& file) {
  std::vector<IgnoreRule> rules;
  // Bounded like any input; a .gitignore that is a FIFO or a device is not read.
  source::ReadResult read = source::read_regular_file(file.string(), kMaxFileBytes);
  if (!read.text) return rules;
  std::istringstream in(std::move(*read.text));
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    IgnoreRule r;
    if (line[0] == '!') {
      r.negate = true;
      line.erase(0, 1);
    }
    if (!line.empty() && line.back() == '/') {
      r.dir_only = true;
      line.pop_back();
    }
    if (line.find('/') != std::string::npos) r.anchored = true;
    if (!line.empty() && line[0] == '/') line.erase(0, 1);
    r.pattern = line;
    if (!r.pattern.empty()) rules.push_back(std::move(r));
  }
  return rules;
}

std::atomic<std::size_t> g_ignore_rule_evaluations{0};

/// The .gitignore files that apply to one folder: its own and those of the folders above it (up to the walked
/// root), outermost first. Shared with the subfolders, so a walk costs O(entries x ancestors with a .gitignore),
/// not O(entries x every .gitignore of the tree).
struct IgnoreChain {
  std::shared_ptr<const IgnoreChain> parent;
  IgnoreSet set;
};

/// Gitignore semantics: the last matching rule decides (deeper .gitignore files are read last).
bool ignored(const IgnoreChain* chain, const std::string& rel, bool is_dir) {
  std::vector<const IgnoreSet*> sets;
  for (const IgnoreChain* c = chain; c != nullptr; c = c->parent.get()) sets.push_back(&c->set);
  bool result = false;
  std::size_t evaluations = 0;
  for (auto it = sets.rbegin(); it != sets.rend(); ++it) {
    const IgnoreSet& set = **it;
    ++evaluations;  // a .gitignore consulted
    std::string_view sub = rel;
    if (!set.base.empty()) {
      if (!sub.starts_with(set.base) || sub.size() <= set.base.size() || sub[set.base.size()] != '/') continue;
      sub.remove_prefix(set.base.size() + 1);
    }
    const auto slash = sub.rfind('/');
    const std::string_view name = slash == std::string_view::npos ? sub : sub.substr(slash + 1);
    for (const IgnoreRule& r : set.rules) {
      if (r.dir_only && !is_dir) continue;
      ++evaluations;  // a rule matched against the path
      const bool m = r.anchored ? glob_impl(r.pattern, sub) : glob_impl(r.pattern, name);
      if (m) result = !r.negate;
    }
  }
  g_ignore_rule_evaluations.fetch_add(evaluations, std::memory_order_relaxed);
  return result;
}

bool wanted_file(const fs::path& p) {
  static const std::set<std::string> kExt = {".yaml", ".yml", ".json", ".toml", ".py", ".sh", ".bash",
                                             ".slurm", ".sbatch"};
  const std::string name = p.filename().string();
  if (name == "Makefile" || name == "makefile" || name == "GNUmakefile" || name.ends_with(".mk")) return true;
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return kExt.count(ext) != 0;
}

std::string rel_string(const fs::path& p) {
  std::string s = p.lexically_normal().generic_string();
  if (s.starts_with("./")) s.erase(0, 2);
  return s;
}

bool excluded(const std::vector<std::string>& exclude, const std::string& rel) {
  for (const std::string& g : exclude) {
    if (glob_impl(g, rel)) return true;
    // A pattern without a slash also matches any path component (like ruff's exclude).
    if (g.find('/') == std::string::npos) {
      std::string_view rest = rel;
      while (true) {
        const auto slash = rest.find('/');
        if (glob_impl(g, rest.substr(0, slash))) return true;
        if (slash == std::string_view::npos) break;
        rest.remove_prefix(slash + 1);
      }
    }
  }
  return false;
}

void walk(const fs::path& root, const std::vector<std::string>& exclude, bool respect_gitignore,
          std::vector<std::string>& out) {
  std::error_code ec;
  // Iterative walk, one directory at a time, never following symlinked directories (no loops). Each folder on
  // the stack carries the chain of .gitignore files above it.
  std::vector<std::pair<fs::path, std::shared_ptr<const IgnoreChain>>> stack{{root, nullptr}};
  while (!stack.empty()) {
    const fs::path dir = stack.back().first;
    std::shared_ptr<const IgnoreChain> chain = std::move(stack.back().second);
    stack.pop_back();
    if (respect_gitignore && fs::is_regular_file(dir / ".gitignore", ec)) {
      auto link = std::make_shared<IgnoreChain>();
      link->parent = chain;
      link->set.base = dir == root ? "" : rel_string(dir.lexically_relative(root));
      link->set.rules = read_gitignore(dir / ".gitignore");
      chain = std::move(link);
    }
    std::vector<fs::directory_entry> entries;
    fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
    if (ec) continue;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      entries.push_back(*it);
    }
    std::sort(entries.begin(), entries.end(),
              [](const fs::directory_entry& a, const fs::directory_entry& b) { return a.path() < b.path(); });
    std::vector<fs::path> subdirs;
    for (const fs::directory_entry& e : entries) {
      const std::string name = e.path().filename().string();
      const bool is_link = e.is_symlink(ec);
      const bool is_dir = !is_link && e.is_directory(ec);
      if (is_dir && (name == ".git" || name == "node_modules" || name == "__pycache__" || name == ".venv" ||
                     name == ".tox" || name == ".mypy_cache" || name == kCacheDirName)) {
        continue;
      }
      const std::string rel_to_root = rel_string(e.path().lexically_relative(root));
      const std::string rel = rel_string(e.path());
      if (respect_gitignore && ignored(chain.get(), rel_to_root, is_dir)) continue;
      if (excluded(exclude, rel)) continue;
      if (is_dir) {
        subdirs.push_back(e.path());
      } else if (!is_link && e.is_regular_file(ec) && wanted_file(e.path())) {
        out.push_back(rel);
      }
    }
    for (auto rit = subdirs.rbegin(); rit != subdirs.rend(); ++rit) stack.emplace_back(*rit, chain);
  }
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) { return glob_impl(pattern, path); }

std::size_t ignore_rule_evaluations() { return g_ignore_rule_evaluations.load(std::memory_order_relaxed); }

std::vector<std::string> discover(const std::vector<std::string>& paths, const std::vector<std::string>& exclude,
                                  bool respect_gitignore, std::vector<std::string>* explicit_files) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const std::string& p : paths) {
    const fs::path path(p);
    if (fs::is_directory(path, ec)) {
      walk(path, exclude, respect_gitignore, out);
    } else {
      // Named explicitly: always read (a missing or unreadable file becomes LL002).
      out.push_back(rel_string(path));
      if (explicit_files != nullptr) explicit_files->push_back(rel_string(path));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace lint::driver
