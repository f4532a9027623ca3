#include "lint/source/read_boundary.hpp"

#include <optional>
#include <utility>

namespace lint::source {

namespace fs = std::filesystem;

namespace {
std::optional<std::vector<fs::path>>& boundary() {
  static std::optional<std::vector<fs::path>> roots;
  return roots;
}
}  // namespace

bool inside_roots(const std::string& path, const std::vector<fs::path>& roots) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
  for (const fs::path& root : roots) {
    auto r = root.begin();
    auto q = p.begin();
    for (; r != root.end() && q != p.end() && *r == *q; ++r, ++q) {
    }
    // Every component of the root matched (a trailing empty component is a root written with a final separator).
    if (r == root.end() || (r->empty() && std::next(r) == root.end())) return true;
  }
  return false;
}

void set_read_boundary(std::vector<fs::path> roots) { boundary() = std::move(roots); }

void clear_read_boundary() { boundary().reset(); }

bool may_read(const std::string& path) {
  const auto& b = boundary();
  return !b || inside_roots(path, *b);
}

fs::path boundary_folder_of(const std::string& path) {
  const auto& b = boundary();
  if (!b) return {};
  fs::path best;
  std::error_code ec;
  for (const fs::path& root : *b) {
    if (root.native().size() <= best.native().size() || !fs::is_directory(root, ec)) continue;
    if (inside_roots(path, {root})) best = root;
  }
  return best;
}

}  // namespace lint::source
