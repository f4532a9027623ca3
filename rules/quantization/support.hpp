// Helpers shared by the quantization rules (not a rule itself).
#pragma once

#include "lint/model/quantization_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {

/// Where FSDP is turned on in a launch, when it is written somewhere.
inline const model::Setting* fsdp_site(const model::Launch& l) {
  if (const model::Setting* s = written_site(l, model::keys::kFsdpEnabled)) return s;
  return written_site(l, model::keys::kDistributedType);
}

/// A related location for a model::Site.
inline std::vector<rule::RelatedLocation> related_site(const std::optional<model::Site>& s, std::string message) {
  if (!s || s->path.empty()) return {};
  return {rule::RelatedLocation{s->path, s->region, std::move(message)}};
}

}  // namespace lint::rules
