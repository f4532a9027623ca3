// CI workflow steps as launch scripts: GitHub Actions `run:` and GitLab CI `script:` strings.
#pragma once

#include <vector>

#include "lint/model/document.hpp"
#include "lint/parse/shell_reader.hpp"
#include "lint/parse/shell_workdir.hpp"

namespace lint::bind {

/// True for a file that CI runs steps from (`.github/workflows/*.yml`, `.gitlab-ci.yml`).
bool is_ci_workflow(const model::Document& doc);

/// The launch commands of a CI workflow's steps. Each step's shell string is read in place, the rest of the file
/// blanked, so positions stay those of the workflow file. Empty for any other document.
std::vector<parse::LaunchCommand> ci_workflow_commands(const model::Document& doc);

/// Where each of those commands runs, by the byte offset where it begins, relative to the repository root:
/// GitHub's step `working-directory` (else the job's or workflow's `defaults: run: working-directory`), joined with
/// a `cd` earlier in the step. Commands that run in the repository root are absent.
std::map<std::size_t, parse::WorkDir> ci_workflow_workdirs(const model::Document& doc);

}  // namespace lint::bind
