// The result cache, like ruff's: a run whose inputs are unchanged is answered from `.launchlint_cache/` without
// parsing anything. An entry is keyed by launchlint's version, the settings that decide the findings, and the
// SHA-256 of every file discovered; it also lists every other file the run looked at (a launch's config, a
// model's config.json: lint/source/access_log.hpp) with its content hash or its absence, checked again on read.
// Cross-file binding makes one file's findings depend on others, so an entry answers for the whole run.
//
// Entries are written atomically (lint/report/output_file), so concurrent runs never see half an entry; an
// entry that does not parse, carries another version or key, fails its checksum or names a file whose content
// changed is ignored (a miss). The cache is the one thing launchlint writes besides what --fix and --output ask
// for; `--no-cache` turns it off, and it is off for standard input.
#pragma once

#include <string>

#include "lint/driver/driver.hpp"

namespace lint::driver {

struct CacheOptions {
  std::string dir;       ///< the cache folder (e.g. `<project>/.launchlint_cache`)
  std::string settings;  ///< what else decides the findings and is not in RunOptions (e.g. --gpu-memory)
};

/// What the last run_cached did, for tests and --verbose style diagnostics.
struct CacheOutcome {
  bool hit = false;
  bool written = false;
  std::string entry;  ///< the entry's path
};

/// Runs the pipeline, or answers from the cache when an entry for exactly these inputs exists. The result of a hit
/// has the diagnostics, the documents' paths, kinds and read errors, and the sources of the files the findings
/// point at (read again and checked against their hash), which is all the reporters use; it has no launches.
RunResult run_cached(const rule::RuleTable& rules, const RunOptions& options, const CacheOptions& cache,
                     CacheOutcome* outcome = nullptr);

}  // namespace lint::driver
