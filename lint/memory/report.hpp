// `launchlint explain --memory`: the per-GPU memory estimate of each launch, as text or JSON (docs/memory.md
// documents the JSON shape).
#pragma once

#include <ostream>
#include <vector>

#include "lint/model/launch.hpp"

namespace lint::memory {

void write_memory_text(std::ostream& out, const std::vector<const model::Launch*>& launches);
void write_memory_json(std::ostream& out, const std::vector<const model::Launch*>& launches);

}  // namespace lint::memory
