// Recognises launch files by content: an accelerate config by its keys, not its file name.
#pragma once

#include <string_view>

#include "lint/model/document.hpp"

namespace lint::model {

/// The kind of a loaded config document (YAML/JSON/TOML), from its keys.
DocKind classify_config(const parse::ConfigDocument& doc, parse::Format format);

/// A cheap byte scan: could this Python text configure a distributed launch? Files that can't are not parsed.
bool python_may_matter(std::string_view text);

/// A byte scan of TOML text: false only when the text cannot be a torchtitan config (classify_config would
/// say Unknown), whatever it parses to. It collects every name that could be a root key (the first part of each
/// table header and of each key at the start of a line: a superset, as nested keys and lines inside multi-line
/// strings count too) and applies torchtitan's test to them.
bool toml_may_be_torchtitan(std::string_view text);

/// A cheap byte scan for config text that failed to parse: does it look like a launch file (worth an LL001)?
bool config_text_may_matter(std::string_view text);

}  // namespace lint::model
