// axolotl: its YAML schema (`fsdp`, `fsdp_config`, `fsdp_version`, `gradient_checkpointing`) and how a config is
// recognised. axolotl builds the Trainer itself, so its YAML decides what the Trainer's plugin gets.
#pragma once

#include <string_view>

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"

namespace lint::model::axolotl {

/// A YAML document is an axolotl config: `base_model` with at least one training key.
bool looks_like_config(const parse::Node& root);

/// The key axolotl reads for one written inside `fsdp_config`: a `fsdp_` prefix is stripped (with a deprecation
/// warning; axolotl:src/axolotl/utils/schemas/validation.py).
std::string_view fsdp_config_key(std::string_view written);

/// The settings an axolotl YAML assigns, decided.
void collect_config(const Document& doc, Launch& l);

}  // namespace lint::model::axolotl
