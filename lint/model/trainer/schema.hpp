// The HF Trainer's schema (transformers 5.17, TRL): which classes are TrainingArguments, which `fsdp_config` keys the
// Trainer reads and how it spells them (`fsdp_x` or `x`), its FSDP version rule, and how a Trainer fsdp_config
// JSON is recognised. Rules, classify and the resolver all use this file.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "lint/model/python_facts.hpp"
#include "lint/model/setting.hpp"
#include "lint/model/value.hpp"
#include "lint/parse/node.hpp"

namespace lint::model::trainer {

/// `TrainingArguments` / `Seq2SeqTrainingArguments`.
bool is_training_arguments_class(std::string_view name);
/// TRL's configs, which derive from TrainingArguments (SFTConfig, DPOConfig, ...).
bool is_trl_config_class(std::string_view name);
/// Either of the above.
bool is_arguments_class(std::string_view name);
/// A call that builds TrainingArguments: a known class, or a `*Config` class from TRL (named `trl.X` or imported
/// by name), as HF001 reads dict literals given to them.
bool is_arguments_call(const PyCall& c);
/// TRL's configs default `gradient_checkpointing` to True (trl/trainer/base_config.py:61-62), transformers' to False.
bool default_gradient_checkpointing(std::string_view cls);

/// HfArgumentParser's string_to_bool (yes/true/t/y/1, no/false/f/n/0, any case), nullopt otherwise.
std::optional<bool> parse_cli_bool(std::string_view s);

/// Every key `_process_fsdp_args` reads after stripping `fsdp_` (training_args.py:2743-2841, docstring :675-713).
std::span<const std::string_view> fsdp_config_read_keys();
/// Read only when `version` is 1 (training_args.py:2830-2841).
std::span<const std::string_view> fsdp_config_fsdp1_only_keys();
/// accelerate-style keys that look valid but the Trainer never reads (no read in 5.17 training_args.py/trainer.py):
/// `sharding_strategy` (the strategy comes from the `fsdp` words) and `offload_params` (from `cpu_offload`).
std::span<const std::string_view> fsdp_config_ignored_keys();

/// The key the Trainer sees for one written in `fsdp_config`: the `fsdp_` prefix is stripped
/// (training_args.py:2743-2745).
std::string_view fsdp_config_key(std::string_view written);

/// Which of several written keys the Trainer uses for `key`. The stripping loop pops each `fsdp_x` and assigns it
/// to `x` (`for k in list(cfg): if k.startswith("fsdp_"): cfg[k[5:]] = cfg.pop(k)`, training_args.py:2743-2745),
/// so a prefixed `fsdp_x` overwrites a plain `x` wherever either is written; among equal spellings the last wins
/// (a JSON object or dict literal keeps the last duplicate). Returns the index into `written`, or nullopt.
std::optional<std::size_t> fsdp_config_pick(std::span<const std::string_view> written, std::string_view key);
/// The same over a Dict value (a dict literal, or a JSON file read as one): the value the Trainer uses for `key`.
const Value* fsdp_config_get(const Value& dict, std::string_view key);

/// True when the transformers version assumed (lint/model/versions.hpp) is one whose Trainer FSDP handling is
/// modelled here: 5.10 and later (FSDP2 by default from 5.10: axolotl v0.18.0
/// src/axolotl/utils/schemas/validation.py:1119-1121), read at 5.17.
bool trainer_fsdp_modelled();

/// The FSDP version the Trainer builds from the (picked) `version` value: 2 when absent (the default from 5.10;
/// nullopt when an older transformers may be installed), 1 or 2 as an int or digit string; nullopt otherwise (not
/// statically known or invalid).
std::optional<int> fsdp_version(const Value* version);

/// A key the Trainer always passes to its FSDP plugin, with the value it passes when `fsdp_config` omits it
/// (training_args.py:2784-2841); passed explicitly, it beats the launcher's environment.
struct PassedKey {
  std::string_view config_key;     ///< as the Trainer reads it (after stripping `fsdp_`)
  std::string_view canonical;      ///< canonical setting key (lint::model::keys)
  std::string_view default_value;  ///< what the Trainer passes when the key is absent
  bool truth;                      ///< read as a truth value ("true"/"false" strings included)
  bool fsdp1_only;                 ///< passed only when `version` is 1 (training_args.py:2830-2841)
};
std::span<const PassedKey> fsdp_passed_keys();

/// The wrap policy the Trainer passes when `fsdp_config` names none (training_args.py:2784-2793).
inline constexpr std::string_view kDefaultAutoWrapPolicy = "TRANSFORMER_BASED_WRAP";
/// The FSDP version the Trainer uses when `fsdp_config` names none (5.x).
inline constexpr int kDefaultFsdpVersion = 2;

/// A JSON object is a Trainer fsdp_config: at least half of its keys are ones the Trainer reads or the
/// accelerate-style keys it ignores (HF001 reports those), with a `fsdp_` prefix or at least two of them.
bool looks_like_fsdp_config(const parse::Node& root);

/// True when a YAML mapping holds TrainingArguments fields at the top level (a TRL / alignment-handbook style
/// recipe read by HfArgumentParser.parse_yaml_file or TRL's `--config`).
bool looks_like_args_config(const parse::Node& root);

}  // namespace lint::model::trainer
