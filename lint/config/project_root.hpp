// The project a file belongs to, found from the file itself and never from the working directory, so that
// launchlint gives the same answer wherever it runs.
#pragma once

#include <string>
#include <vector>

namespace lint::config {

/// The folders above `path` (a file or folder, relative to the working directory or absolute) that mark a project
/// root, nearest first: a folder holding `.git`, `launchlint.toml`, `.launchlint.toml` or `pyproject.toml`. The
/// walk stops at the first folder holding `.git` (the repository). Absolute, lexically normal paths.
std::vector<std::string> project_roots(const std::string& path);

/// The outermost of project_roots (the repository when there is one); "" when no marker is found.
std::string project_root(const std::string& path);

/// `absolute` as launchlint shows paths: relative to the working directory (`../x` above it), "." for itself.
std::string shown_path(const std::string& absolute);

}  // namespace lint::config
