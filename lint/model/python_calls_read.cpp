#include "lint/model/python_calls_read.hpp"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <string_view>

#include "lint/model/lazy_config.hpp"

namespace lint::model {
namespace {

/// Call names read by name (`c.name == ...`, `calls_named(...)`), those the suffixes below do not cover.
constexpr std::string_view kNames[] = {
    // transformers, TRL, PEFT, bitsandbytes
    "from_pretrained", "get_kbit_device_map", "gradient_checkpointing_enable", "prepare_model_for_kbit_training",
    "get_peft_model", "save_model", "to", "bfloat16", "half", "Adafactor", "AdamW8bit", "PagedAdamW8bit", "PagedAdamW",
    // argument parsers
    "parse_yaml_file", "parse_json_file", "parse_dict", "parse_args_and_config", "parse_args_into_dataclasses",
    "parse_args", "parse_known_args", "parse_known_intermixed_args", "parse_intermixed_args", "add_argument",
    "add_argument_group", "add_subparsers", "Fire",
    // accelerate, DeepSpeed, Lightning
    "Accelerator", "prepare", "prepare_model", "set_state_dict_type", "initialize", "Fabric", "DeepSpeedCPUAdam",
    "DeepSpeedCPULion",
    // torch
    "FullyShardedDataParallel", "fully_shard", "DistributedDataParallel", "apply_activation_checkpointing",
    "checkpoint_wrapper", "checkpoint_sequential", "checkpoint", "fsdp_auto_wrap_policy", "lambda_auto_wrap_policy",
    "_or_policy", "partial", "DataLoader"};

/// Name suffixes: TrainingArguments and TRL's configs, the trainers, parsers, plugins, strategies and policies.
constexpr std::string_view kSuffixes[] = {"Arguments", "Config", "Trainer", "Parser",   "Plugin",
                                          "Strategy",  "Kwargs", "Policy",  "Optimizer"};

/// Callee prefixes, as the readers test them (`trl` also matches `trl.`; `deepspeed` matches `deepspeed.ops.`).
// clang-format off
constexpr std::string_view kCalleePrefixes[] = {
    "transformers", "trl", "peft", "accelerate", "deepspeed", "lightning", "pytorch_lightning", "L.", "pl.", "unsloth",
    "bitsandbytes", "apex.", "torch.optim", "torch.distributed", "torch.utils.checkpoint", "argparse."};
// clang-format on

/// Attribute names read from assignments, besides those of an `fsdp_plugin`.
constexpr std::string_view kAttributes[] = {"gradient_checkpointing", "state_dict_type", "auto_wrap_policy"};

std::atomic<std::size_t> g_read_calls_only_from{0};

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view s) {
  return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

}  // namespace

bool python_call_read_by_name(const PyCall& c) {
  return python_call_read_by_name(c.name, c.callee);
}

bool python_call_read_by_name(std::string_view name, std::string_view callee) {
  if (contains(kNames, name)) return true;
  for (std::string_view s : kSuffixes) {
    if (name.ends_with(s)) return true;
  }
  for (std::string_view p : kCalleePrefixes) {
    if (callee.starts_with(p)) return true;
  }
  return false;
}

bool python_call_read(const PyCall& c) {
  return python_call_read_by_name(c) || c.keyword(kReadKeyword) != nullptr || !lazy_config_type(c).empty();
}

bool python_attribute_assignment_read(const PyAttributeAssignment& a) {
  return a.target.find("plugin") != std::string::npos || contains(kAttributes, a.attribute);
}

std::size_t python_read_calls_only_from() {
  return g_read_calls_only_from.load(std::memory_order_relaxed);
}

std::size_t set_python_read_calls_only_from(std::size_t bytes) {
  return g_read_calls_only_from.exchange(bytes, std::memory_order_relaxed);
}

}  // namespace lint::model
