// accelerate's schema: what accelerate 1.15 accepts in a config file (the top-level keys, the fsdp_config sub-keys
// with their `accelerate launch` defaults, the enumerations it parses), how it spells keys (`fsdp_x` or `x`), how
// it parses each value, and how a config file is recognised. Rules, classify and the resolver all use this file.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "lint/model/value.hpp"
#include "lint/parse/node.hpp"

namespace lint::model::accelerate {

/// How accelerate parses an fsdp_config value.
enum class FsdpValueType : std::uint8_t {
  Truth,                ///< str_to_bool: y/yes/t/true/on/1, n/no/f/false/off/0
  Strategy,             ///< a ShardingStrategy name (any case) or digit 1..5
  ReshardAfterForward,  ///< FSDP2: truth value; FSDP1: a strategy
  Version,              ///< 1 or 2
  WrapPolicy,           ///< TRANSFORMER_BASED_WRAP / SIZE_BASED_WRAP / NO_WRAP (any case)
  BackwardPrefetch,     ///< BACKWARD_PRE / BACKWARD_POST / NO_PREFETCH (any case) or digit
  StateDictType,        ///< FULL_STATE_DICT / LOCAL_STATE_DICT / SHARDED_STATE_DICT (any case) or digit
  Int,                  ///< int(...)
  String,               ///< free text (class names, regex)
};

struct FsdpKey {
  std::string_view name;       ///< with the fsdp_ prefix, as accelerate names it
  std::string_view canonical;  ///< canonical setting key (lint::model::keys)
  FsdpValueType type;
  std::string_view launch_default;  ///< the `accelerate launch` flag default as it reaches the env; empty = None
  unsigned versions;                ///< bit 0: read by FSDP1, bit 1: read by FSDP2
  /// The FullyShardedDataParallelPlugin's own default when nothing (launcher, env) sets it; empty = none modelled
  /// (dataclasses.py:1815-2034). The state dict type's depends on the version: state_dict_type_default().
  std::string_view plugin_default = {};
  std::string_view plugin_default_note = {};  ///< how explain names that default (empty: the plugin's default)
};

/// A keyword of `FullyShardedDataParallelPlugin(...)` (or an attribute set on it) and the fsdp_config key whose
/// parsing applies (dataclasses.py:1815-2034).
struct PluginField {
  std::string_view kwarg;
  std::string_view prefixed;
};
std::span<const PluginField> plugin_fields();

/// An environment variable the FSDP plugin reads (FSDP_*), the fsdp_config key it carries, and whether
/// `accelerate launch` always exports it under FSDP, overwriting the script's own (utils/launch.py:304-332).
struct EnvVar {
  std::string_view var;
  std::string_view prefixed;
  bool always_written;
};
std::span<const EnvVar> env_vars();

/// The plugin's default state dict type for an FSDP version (dataclasses.py:2030-2034).
std::string_view state_dict_type_default(int fsdp_version);

/// Every fsdp_config key accelerate reads (after adding the missing `fsdp_` prefix).
std::span<const FsdpKey> fsdp_keys();
const FsdpKey* find_fsdp_key(std::string_view prefixed_name);

/// The name accelerate reads for a key written inside `fsdp_config`: keys lacking the `fsdp_` prefix get it
/// (accelerate 1.15 commands/launch.py:1264-1265, `fsdp_config.X` -> `args.fsdp_X`).
std::string fsdp_config_key(std::string_view written);
/// The key accelerate reads for a key written inside `fsdp_config` (prefix added), or nullptr.
const FsdpKey* find_fsdp_config_key(std::string_view written);

/// The entry of `prefixed` in an fsdp_config mapping as the launcher sees it. PyYAML and json.load build a dict
/// (a repeated key keeps its first position and its last value); launch.py then copies the keys in dict order,
/// adding the `fsdp_` prefix, so of `x` and `fsdp_x` the one that comes later in the dict wins. nullptr if absent.
const parse::Entry* launcher_entry(const parse::Node& fsdp_config, std::string_view prefixed);

/// Canonical value of one fsdp_config entry as accelerate parses it (`SHARD_GRAD_OP` for `2` or
/// `shard_grad_op`, booleans from truth strings, versions as ints). Values accelerate would reject are returned
/// as written, so rules can report them.
Value normalise_value(std::string_view prefixed_key, const Value& written);

/// A config document is an accelerate config (by its keys, not its file name).
bool looks_like_config(const parse::Node& root);

/// Top-level keys of ClusterConfig / SageMakerConfig, plus the legacy keys accelerate rewrites.
std::span<const std::string_view> top_level_keys();
bool is_top_level_key(std::string_view key);

std::span<const std::string_view> distributed_types();
std::span<const std::string_view> mixed_precisions();
std::span<const std::string_view> compute_environments();
std::span<const std::string_view> dynamo_backends();
std::span<const std::string_view> multinode_launchers();

/// FSDP1 ShardingStrategy names accelerate accepts (constants.py:38), in enum order (index+1 = digit).
std::span<const std::string_view> sharding_strategies();
std::span<const std::string_view> wrap_policies();
std::span<const std::string_view> backward_prefetches();
std::span<const std::string_view> state_dict_types();

/// Parses a strategy as accelerate does (case-insensitive name or digit 1..5) into its canonical upper-case name.
std::optional<std::string_view> parse_strategy(std::string_view text);
/// Case-insensitive lookup in one of the lists above; returns the canonical spelling.
std::optional<std::string_view> parse_choice(std::span<const std::string_view> choices, std::string_view text);

/// True when `strategy` keeps parameters unsharded from forward to backward (ZeRO-2 style).
bool keeps_params_between_passes(std::string_view strategy);

/// The closest candidate by edit distance (for "did you mean"), or empty when nothing is close.
std::string_view closest(std::string_view word, std::span<const std::string_view> candidates);

}  // namespace lint::model::accelerate
