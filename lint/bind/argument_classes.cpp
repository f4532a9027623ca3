#include "lint/bind/argument_classes.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "lint/bind/binder.hpp"
#include "lint/config/project_root.hpp"
#include "lint/model/trainer/schema.hpp"
#include "lint/source/access_log.hpp"
#include "lint/source/read_boundary.hpp"
#include "lint/source/read_file.hpp"
#include "lint/source/source_file.hpp"

namespace lint::bind {
namespace {

namespace fs = std::filesystem;

/// How far an import is followed: levels (a re-export, a base class), and files read for one file in all.
constexpr int kLevels = 5;
constexpr std::size_t kFiles = 12;
/// A module larger than this is not read for its classes.
constexpr std::uintmax_t kMaxBytes = 1024 * 1024;

bool library_module(std::string_view q) {
  for (std::string_view lib : {std::string_view("transformers"), std::string_view("trl")}) {
    if (q == lib || (q.starts_with(lib) && q.size() > lib.size() && q[lib.size()] == '.')) return true;
  }
  return false;
}

/// `a.b.C` -> {`a.b`, `C`}; a name without a dot has no module.
std::pair<std::string, std::string> split_last(const std::string& q) {
  const auto dot = q.rfind('.');
  if (dot == std::string::npos) return {std::string(), q};
  return {q.substr(0, dot), q.substr(dot + 1)};
}

class Resolver {
 public:
  explicit Resolver(const std::string& path) {
    // The file's folder and the folders above it, up to the folder being linted (a tree without a root marker,
    // unpacked from an archive, finds its packages there) and a few levels at most, then the project roots.
    const fs::path boundary = source::boundary_folder_of(path);
    const fs::path absolute = fs::absolute(fs::path(path)).lexically_normal();
    fs::path dir = fs::path(path).parent_path();
    fs::path abs_dir = absolute.parent_path();
    for (int up = 0; up < kLevels; ++up) {
      bases_.push_back(dir.empty() ? std::string(".") : dir.generic_string());
      if (!boundary.empty() && (abs_dir == boundary || !abs_dir.has_parent_path())) break;
      if (!dir.has_parent_path() || dir == dir.parent_path()) {
        if (dir.empty() || dir == ".") break;
        dir = ".";
      } else {
        dir = dir.parent_path();
      }
      abs_dir = abs_dir.parent_path();
    }
    for (const std::string& r : config::project_roots(path)) bases_.push_back(r);
  }

  /// Whether the class `name` that a file at `importer` imports from `module` is the library's arguments class or
  /// derives from it: true only when that is known.
  bool library_class(const std::string& module, const std::string& name, const std::string& importer, int depth) {
    if (library_module(module)) return model::trainer::is_arguments_class(name);
    if (module.empty() || depth > kLevels) return false;
    const std::string file = find(module, importer);
    const model::PythonFacts* py = file.empty() ? nullptr : facts(file);
    if (py == nullptr) return false;
    const model::PyClass* k = nullptr;
    for (const model::PyClass& c : py->classes) {
      if (c.name == name) k = &c;
    }
    if (k != nullptr) return derives(*py, *k, file, depth + 1);
    // Imported there again (`from .trainers import TrainingArguments` in a package's `__init__.py`).
    const auto it = py->imports.find(name);
    if (it == py->imports.end()) return false;
    const auto [m, n] = split_last(it->second);
    return library_class(m, n, file, depth + 1);
  }

 private:
  /// Whether one of the class's bases is (or derives from) the library's arguments class.
  bool derives(const model::PythonFacts& py, const model::PyClass& k, const std::string& file, int depth) {
    if (depth > kLevels) return false;
    for (const std::string& base : k.bases) {
      const auto [m, n] = split_last(base);
      if (!m.empty()) {
        if (library_class(m, n, file, depth + 1)) return true;
        continue;
      }
      // A bare name: a class of the same file (a name imported would be qualified).
      for (const model::PyClass& c : py.classes) {
        if (c.name == n && &c != &k && derives(py, c, file, depth + 1)) return true;
      }
    }
    return false;
  }

  std::string find(const std::string& module, const std::string& importer) {
    std::error_code ec;
    for (const std::string& c : import_candidates(module, importer, bases_, true)) {
      source::note_access(c);  // the result cache keys on its presence
      if (fs::is_regular_file(c, ec)) return c;
    }
    return {};
  }

  const model::PythonFacts* facts(const std::string& file) {
    if (auto it = read_.find(file); it != read_.end()) return it->second.get();
    if (read_.size() >= kFiles) return nullptr;
    std::shared_ptr<model::PythonFacts>& slot = read_[file];
    if (!source::may_read(file)) return nullptr;  // outside the project's boundary (SECURITY.md)
    source::ReadResult r = source::read_regular_file(file, kMaxBytes);
    if (!r.text) return nullptr;
    const source::SourceFile source(file, std::move(*r.text));
    slot = std::make_shared<model::PythonFacts>(model::read_python_facts(source));
    return slot.get();
  }

  std::vector<std::string> bases_;
  std::map<std::string, std::shared_ptr<model::PythonFacts>> read_;
};

/// Whether `callee` is a name the file imports (`a.b.C` from `from a.b import C`, `mod.C` under `import mod`).
bool imported(const model::PythonFacts& py, const std::string& callee) {
  for (const auto& [local, q] : py.imports) {
    if (callee == q || (callee.size() > q.size() && callee.starts_with(q) && callee[q.size()] == '.')) return true;
  }
  return false;
}

}  // namespace

void drop_foreign_argument_classes(const std::string& path, model::PythonFacts& py) {
  std::vector<std::string> foreign;
  std::vector<std::string> looked;
  std::unique_ptr<Resolver> resolver;
  for (const model::PyCall& c : py.calls) {
    if (!model::trainer::is_arguments_class(c.name) || c.callee == c.name || library_module(c.callee)) continue;
    if (std::find(looked.begin(), looked.end(), c.callee) != looked.end()) continue;
    looked.push_back(c.callee);
    if (!imported(py, c.callee)) continue;
    if (!resolver) resolver = std::make_unique<Resolver>(path);
    const auto [m, n] = split_last(c.callee);
    if (!resolver->library_class(m, n, path, 0)) foreign.push_back(c.callee);
  }
  if (foreign.empty()) return;
  std::erase_if(py.calls, [&foreign](const model::PyCall& c) {
    return std::find(foreign.begin(), foreign.end(), c.callee) != foreign.end();
  });
  // Still called: what tells whether the module is called at all (PythonFacts::calls_into).
  for (std::string& f : foreign) py.called_imports.push_back(std::move(f));
  std::sort(py.called_imports.begin(), py.called_imports.end());
  py.called_imports.erase(std::unique(py.called_imports.begin(), py.called_imports.end()), py.called_imports.end());
}

}  // namespace lint::bind
