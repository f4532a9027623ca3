// File discovery: directories walked without following symlinks, .gitignore files honoured, excludes applied.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

#include "lint/driver/driver.hpp"
#include "lint/driver/parallel.hpp"
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

bool wanted_file(std::string_view name) {
  if (name == "Makefile" || name == "makefile" || name == "GNUmakefile" || name.ends_with(".mk")) return true;
  // The extension as std::filesystem::path has it: from the last dot, unless the name starts with its only dot.
  const auto dot = name.rfind('.');
  if (dot == std::string_view::npos || dot == 0) return false;
  std::string ext(name.substr(dot));
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  static const std::set<std::string, std::less<>> kExt = {".yaml", ".yml",  ".json",  ".toml",  ".py",
                                                          ".sh",   ".bash", ".slurm", ".sbatch"};
  return kExt.count(ext) != 0;
}

std::string rel_string(const fs::path& p) {
  std::string s = p.lexically_normal().generic_string();
  if (s.starts_with("./")) s.erase(0, 2);
  return s;
}

/// The exclude patterns, sorted once by how they match. A pattern matches the whole path; one without a slash also
/// matches any path component (like ruff's exclude). Plain names (the default excludes: `.git`, `build`, ...)
/// are compared, not matched.
struct Excludes {
  std::vector<std::string> names;       ///< no slash, no wildcard: equal to a component (or the path)
  std::vector<std::string> name_globs;  ///< no slash: match a component (or the path)
  std::vector<std::string> path_globs;  ///< with a slash: match the whole path

  explicit Excludes(const std::vector<std::string>& patterns) {
    for (const std::string& g : patterns) {
      if (g.find('/') != std::string::npos)
        path_globs.push_back(g);
      else if (g.find_first_of("*?") == std::string::npos)
        names.push_back(g);
      else
        name_globs.push_back(g);
    }
  }

  [[nodiscard]] bool match(const std::string& rel) const {
    for (const std::string& g : path_globs) {
      if (glob_impl(g, rel)) return true;
    }
    if (names.empty() && name_globs.empty()) return false;
    std::string_view rest = rel;
    while (true) {
      const auto slash = rest.find('/');
      const std::string_view component = rest.substr(0, slash);
      for (const std::string& g : names) {
        if (component == g) return true;
      }
      for (const std::string& g : name_globs) {
        if (glob_impl(g, component)) return true;
      }
      if (slash == std::string_view::npos) break;
      rest.remove_prefix(slash + 1);
    }
    // A name pattern matched against the whole path: only an empty pattern on a path of one component differs
    // from the components above, and glob_impl decides it the same way.
    for (const std::string& g : names) {
      if (g == rel) return true;
    }
    for (const std::string& g : name_globs) {
      if (glob_impl(g, rel)) return true;
    }
    return false;
  }
};

/// `rel` + "/" + `name`, where an empty `rel` is the walked root itself.
std::string join(const std::string& rel, const std::string& name) {
  if (rel.empty()) return name;
  return rel.back() == '/' ? rel + name : rel + "/" + name;
}

/// A folder to walk: its path, its path as shown (the root as given, normalised, then plain names appended: no
/// path arithmetic per entry), its path relative to the root, and the chain of .gitignore files above it.
struct Folder {
  fs::path path;
  std::string shown;    ///< as reported ("" for ".")
  std::string in_root;  ///< relative to the root ("" for the root)
  std::shared_ptr<const IgnoreChain> chain;
};

/// Lists one folder: its wanted files into `files`, its subfolders (with its chain) into `subdirs`. Reads nothing
/// shared but the chains above it (immutable), so the folders of a level are listed in parallel.
void list_folder(Folder folder, const Excludes& exclude, bool respect_gitignore, std::vector<std::string>& files,
                 std::vector<Folder>& subdirs, std::vector<Unlistable>& unlistable) {
  std::error_code ec;
  const fs::path& dir = folder.path;
  std::vector<std::pair<std::string, fs::directory_entry>> entries;
  // A folder that cannot be listed (no permission, a path past PATH_MAX, no file descriptor left) is reported,
  // never skipped in silence: its files would go unchecked.
  const auto cannot_list = [&] {
    unlistable.push_back(Unlistable{folder.shown.empty() ? "." : folder.shown, ec.message()});
  };
  fs::directory_iterator it(dir, ec);
  if (ec) return cannot_list();
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) return cannot_list();
    entries.emplace_back(it->path().filename().string(), *it);
  }
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::shared_ptr<const IgnoreChain> chain = std::move(folder.chain);
  if (respect_gitignore) {
    // The folder's own .gitignore, found in its listing (no stat for the many folders without one).
    const auto git = std::lower_bound(entries.begin(), entries.end(), std::string_view(".gitignore"),
                                      [](const auto& e, std::string_view n) { return e.first < n; });
    if (git != entries.end() && git->first == ".gitignore" && git->second.is_regular_file(ec)) {
      auto link = std::make_shared<IgnoreChain>();
      link->parent = chain;
      link->set.base = folder.in_root;
      link->set.rules = read_gitignore(dir / ".gitignore");
      chain = std::move(link);
    }
  }
  for (const auto& [name, e] : entries) {
    const bool is_link = e.is_symlink(ec);
    const bool is_dir = !is_link && e.is_directory(ec);
    if (is_dir && (name == ".git" || name == "node_modules" || name == "__pycache__" || name == ".venv" ||
                   name == ".tox" || name == ".mypy_cache" || name == kCacheDirName)) {
      continue;
    }
    std::string rel_to_root = join(folder.in_root, name);
    std::string rel = join(folder.shown, name);
    if (respect_gitignore && ignored(chain.get(), rel_to_root, is_dir)) continue;
    if (exclude.match(rel)) continue;
    if (is_dir) {
      subdirs.push_back(Folder{e.path(), std::move(rel), std::move(rel_to_root), chain});
    } else if (!is_link && e.is_regular_file(ec) && wanted_file(name)) {
      files.push_back(std::move(rel));
    }
  }
}

/// Walks `root` a level at a time, the folders of a level listed on `jobs` threads, never following symlinked
/// directories (no loops). The files come out in an order that depends only on the tree (discover sorts them).
void walk(const fs::path& root, const Excludes& exclude, bool respect_gitignore, unsigned jobs,
          std::vector<std::string>& out, std::vector<Unlistable>& unlistable) {
  std::string shown_root = rel_string(root);
  if (shown_root == ".") shown_root.clear();
  while (shown_root.size() > 1 && shown_root.back() == '/') shown_root.pop_back();
  std::vector<Folder> level{{root, shown_root, "", nullptr}};
  while (!level.empty()) {
    std::vector<std::vector<std::string>> files(level.size());
    std::vector<std::vector<Folder>> subdirs(level.size());
    std::vector<std::vector<Unlistable>> failed(level.size());
    parallel_region(level.size(), jobs, [&](std::size_t i) {
      list_folder(std::move(level[i]), exclude, respect_gitignore, files[i], subdirs[i], failed[i]);
    });
    std::vector<Folder> next;
    for (std::size_t i = 0; i < level.size(); ++i) {
      std::move(failed[i].begin(), failed[i].end(), std::back_inserter(unlistable));
      std::move(files[i].begin(), files[i].end(), std::back_inserter(out));
      std::move(subdirs[i].begin(), subdirs[i].end(), std::back_inserter(next));
    }
    level = std::move(next);
  }
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view path) {
  return glob_impl(pattern, path);
}

std::size_t ignore_rule_evaluations() {
  return g_ignore_rule_evaluations.load(std::memory_order_relaxed);
}

std::vector<std::string> discover(const std::vector<std::string>& paths, const std::vector<std::string>& exclude,
                                  bool respect_gitignore, std::vector<std::string>* explicit_files, unsigned jobs,
                                  std::vector<Unlistable>* unlistable) {
  std::vector<std::string> out;
  std::vector<Unlistable> failed;
  std::error_code ec;
  const Excludes excludes(exclude);
  for (const std::string& p : paths) {
    const fs::path path(p);
    if (fs::is_directory(path, ec)) {
      walk(path, excludes, respect_gitignore, jobs, out, failed);
    } else {
      // Named explicitly: always read (a missing or unreadable file becomes LL002).
      out.push_back(rel_string(path));
      if (explicit_files != nullptr) explicit_files->push_back(rel_string(path));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  std::sort(failed.begin(), failed.end(), [](const Unlistable& a, const Unlistable& b) { return a.path < b.path; });
  if (unlistable != nullptr) *unlistable = std::move(failed);
  return out;
}

}  // namespace lint::driver
