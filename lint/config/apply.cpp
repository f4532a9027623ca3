#include "lint/config/apply.hpp"

namespace lint::config {

void apply(const ProjectConfig& project, driver::RunOptions& options) {
  if (project.select) options.selection.select = *project.select;
  options.selection.ignore = project.ignore;
  options.selection.extend_select = project.extend_select;
  options.selection.severity = project.severity;
  for (const auto& g : project.exclude) {
    options.exclude.push_back(g);
    // Excludes are relative to the config's folder; the walk matches paths relative to the working directory.
    if (!project.base_dir.empty() && project.base_dir != ".") options.exclude.push_back(project.base_dir + "/" + g);
  }
  options.per_file_ignores = project.per_file_ignores;
  options.declared_launches = project.launches;
}

}  // namespace lint::config
