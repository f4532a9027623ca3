// `launchlint explain`: the effective configuration of each launch, each value with where it came from and
// what it overrode.
#pragma once

#include <ostream>
#include <vector>

#include "lint/model/launch.hpp"
#include "lint/model/versions.hpp"

namespace lint::report {

/// With `versions`, the text ends with the library versions assumed and where each came from; the JSON gives
/// each launch a `target_versions` object.
void write_explain_text(std::ostream& out, const std::vector<const model::Launch*>& launches, bool color,
                        const model::TargetVersions* versions = nullptr);
void write_explain_json(std::ostream& out, const std::vector<const model::Launch*>& launches,
                        const model::TargetVersions* versions = nullptr);

}  // namespace lint::report
