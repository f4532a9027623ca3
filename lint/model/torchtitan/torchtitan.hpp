// torchtitan v0.2.2: its job TOML (parallelism, activation checkpointing) and `run_train.sh` (NGPU processes).
#pragma once

#include <string_view>

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"
#include "lint/model/resolve.hpp"

namespace lint::model::torchtitan {

/// One of the root tables looks_like_config counts (`job`, `model`, `parallelism`, ...).
bool is_section(std::string_view name);

/// A TOML document is a torchtitan job config (its sections, not a pyproject).
bool looks_like_config(const parse::Node& root);

/// The settings a job TOML assigns, decided (torchtitan reads nothing else for them).
void collect_config(const Document& doc, Launch& l);

/// `[NGPU=n] [CONFIG_FILE=x] ./run_train.sh [--job.config_file x]`.
void resolve_launch(const BoundInputs& in, Launch& l);

}  // namespace lint::model::torchtitan
