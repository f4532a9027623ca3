// accelerate's launcher and plugin: what `accelerate launch` reads (config file, `--x` flags, the environment of the
// launch script), what it exports by default, and what a FullyShardedDataParallelPlugin built in the script sets;
// the precedence among them is the accelerate rank table (lint/model/precedence.cpp).
#pragma once

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"
#include "lint/model/resolve.hpp"

namespace lint::model::accelerate {

/// The settings an accelerate config file assigns. `fsdp_section_read`: whether the launcher exports its
/// fsdp_config (only under FSDP, utils/launch.py:304-332).
void collect_config(const Document& doc, Launch& l, bool fsdp_section_read = true);

/// Environment variables of the launch script that the FSDP plugin reads (accelerate
/// src/accelerate/utils/dataclasses.py:1821-1961); under
/// `accelerate launch` (`launcher_overwrites`) the ones it always exports are overwritten.
void collect_environment(const Document& script_doc, const parse::LaunchCommand& cmd, Launch& l,
                         bool launcher_overwrites);

/// `accelerate launch --x` flags.
void collect_launch_flags(const Document& script_doc, const parse::LaunchCommand& cmd, Launch& l);

/// `FullyShardedDataParallelPlugin(...)` in a script and `accelerator.state.fsdp_plugin.<field> = v`.
void collect_plugin(const Document& doc, const PythonFacts& py, Launch& l);

/// Decides every fsdp_config key: the `accelerate launch` flag defaults when the launcher exports them
/// (`launcher_defaults`), else the plugin's own defaults.
void decide_fsdp(Launch& l, bool launcher_defaults);

/// Keys the effective FSDP version never reads become "not read" in the effective view (their assignments stay).
void mark_unread(Launch& l);

/// An accelerate config linted alone: `accelerate launch --config_file <doc>`, through resolve_launch.
void resolve_config_alone(const Document& doc, Launch& l);

/// `accelerate launch [flags] [--config_file c] script [args]`.
void resolve_launch(const BoundInputs& in, Launch& l);

}  // namespace lint::model::accelerate
