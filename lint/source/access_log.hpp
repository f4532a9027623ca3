// The files a run looked at beyond the ones it discovered: a launch's config found through a command line, a
// model's config.json, a project config above a launch. The result cache (lint/driver/cache.hpp) keys an entry by
// their presence and content too, so any code that checks or reads a file on disk while linting notes it here.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace lint::source {

/// Notes that the result depends on whether `path` exists and what it holds. Thread-safe; a no-op unless a log
/// is open.
void note_access(std::string_view path);

/// Opens the log (forgetting what an earlier one noted). One log at a time, for the whole process.
void begin_access_log();

/// Closes the log and returns the paths noted, sorted and unique.
std::vector<std::string> end_access_log();

}  // namespace lint::source
