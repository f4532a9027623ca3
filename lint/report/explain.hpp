// `launchlint explain`: the effective configuration of each launch, each value with where it came from and
// what it overrode.
#pragma once

#include <ostream>
#include <vector>

#include "lint/model/launch.hpp"

namespace lint::report {

void write_explain_text(std::ostream& out, const std::vector<const model::Launch*>& launches, bool color);
void write_explain_json(std::ostream& out, const std::vector<const model::Launch*>& launches);

}  // namespace lint::report
