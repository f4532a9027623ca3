// Helpers shared by the Lightning rules (PL*).
#pragma once

#include <string_view>

#include "rules/support.hpp"

namespace lint::rules::lightning {

/// A call of Lightning's `FSDPStrategy` (lightning.pytorch / pytorch_lightning).
inline bool is_fsdp_strategy(const model::PyCall& c) {
  return c.name == "FSDPStrategy" && (c.callee.find("lightning") != std::string::npos || c.callee == "FSDPStrategy");
}

/// A call of Lightning's `Trainer` (not transformers'): `lightning.pytorch.Trainer`, `pytorch_lightning.Trainer`,
/// `L.Trainer`, `pl.Trainer`.
inline bool is_lightning_trainer(const model::PyCall& c) {
  return c.name == "Trainer" && c.callee.find("lightning") != std::string::npos;
}

}  // namespace lint::rules::lightning
