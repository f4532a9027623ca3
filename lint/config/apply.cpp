#include "lint/config/apply.hpp"

#include <string>
#include <vector>

namespace lint::config {

void apply(const ProjectConfig& project, driver::RunOptions& options) {
  if (project.select) options.selection.select = *project.select;
  options.selection.ignore = project.ignore;
  options.selection.extend_select = project.extend_select;
  options.selection.severity = project.severity;
  std::vector<std::string> excludes = project.exclude.value_or(default_excludes());
  excludes.insert(excludes.end(), project.extend_exclude.begin(), project.extend_exclude.end());
  options.exclude.clear();
  for (const auto& g : excludes) {
    options.exclude.push_back(g);
    // Excludes are relative to the config's folder; the walk matches paths relative to the working directory.
    if (!project.base_dir.empty() && project.base_dir != "." && g.find('/') != std::string::npos)
      options.exclude.push_back(project.base_dir + "/" + g);
  }
  options.per_file_ignores = project.per_file_ignores;
  options.declared_launches = project.launches;
  options.target_versions = project.target_versions;
  if (!project.base_dir.empty()) options.pin_folders = {project.base_dir};
}

}  // namespace lint::config
