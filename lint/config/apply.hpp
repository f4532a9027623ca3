// The project configuration applied to a run: selection, severities, excludes, per-file ignores, declared launches,
// target versions.
#pragma once

#include "lint/config/project_config.hpp"
#include "lint/driver/driver.hpp"

namespace lint::config {

/// Sets what `project` decides in `options` (the command line's own options are applied after it).
void apply(const ProjectConfig& project, driver::RunOptions& options);

}  // namespace lint::config
