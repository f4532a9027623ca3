// The project boundary as the readers outside the binder see it (SECURITY.md): a run sets the folders and files it
// may read, and code that opens a file a launch names (a model's config.json, ...) asks first. Outside a run (unit
// tests, tools) no boundary is set and everything may be read.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lint::source {

/// True when `path` (made absolute, links resolved) lies under one of `roots` (canonical folders or files).
bool inside_roots(const std::string& path, const std::vector<std::filesystem::path>& roots);

/// Sets the boundary of the run in progress (one run at a time; read-only while it runs).
void set_read_boundary(std::vector<std::filesystem::path> roots);

/// Forgets the boundary: everything may be read again.
void clear_read_boundary();

/// True when no boundary is set, or `path` is inside it.
bool may_read(const std::string& path);

/// The innermost folder of the boundary that holds `path` (canonical: made absolute, links resolved), the folder
/// being linted or the repository holding it; empty when no boundary is set or none holds it.
std::filesystem::path boundary_folder_of(const std::string& path);

}  // namespace lint::source
