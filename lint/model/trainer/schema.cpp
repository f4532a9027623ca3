#include "lint/model/trainer/schema.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

#include "lint/model/versions.hpp"

namespace lint::model::trainer {

namespace {

constexpr std::array<std::string_view, 18> kReadKeys = {"version",
                                                        "cpu_offload",
                                                        "auto_wrap_policy",
                                                        "min_num_params",
                                                        "transformer_layer_cls_to_wrap",
                                                        "cpu_ram_efficient_loading",
                                                        "state_dict_type",
                                                        "activation_checkpointing",
                                                        "reshard_after_forward",
                                                        "forward_prefetch",
                                                        "backward_prefetch",
                                                        "use_orig_params",
                                                        "sync_module_states",
                                                        "limit_all_gathers",
                                                        "xla",
                                                        "xla_fsdp_v2",
                                                        "xla_fsdp_grad_ckpt",
                                                        "xla_fsdp_settings"};

constexpr std::array<std::string_view, 5> kFsdp1Only = {"forward_prefetch", "backward_prefetch", "use_orig_params",
                                                        "sync_module_states", "limit_all_gathers"};

constexpr std::array<std::string_view, 2> kIgnored = {"sharding_strategy", "offload_params"};

constexpr std::string_view kPrefix = "fsdp_";

constexpr std::array<PassedKey, 6> kPassed = {
    PassedKey{"cpu_ram_efficient_loading", keys::kCpuRamEfficientLoading, "false", true, false},
    PassedKey{"state_dict_type", keys::kStateDictType, "FULL_STATE_DICT", false, false},
    PassedKey{"forward_prefetch", keys::kForwardPrefetch, "false", true, true},
    PassedKey{"backward_prefetch", keys::kBackwardPrefetch, "NO_PREFETCH", false, true},
    PassedKey{"use_orig_params", keys::kUseOrigParams, "true", true, true},
    PassedKey{"sync_module_states", keys::kSyncModuleStates, "true", true, true},
};

bool contains(std::span<const std::string_view> list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

}  // namespace

bool is_training_arguments_class(std::string_view name) {
  return name == "TrainingArguments" || name == "Seq2SeqTrainingArguments";
}

bool is_trl_config_class(std::string_view name) {
  static constexpr std::array<std::string_view, 17> kTrl = {
      "SFTConfig",    "DPOConfig", "GRPOConfig",   "ORPOConfig",      "KTOConfig", "CPOConfig",
      "RewardConfig", "PPOConfig", "RLOOConfig",   "OnlineDPOConfig", "GKDConfig", "PRMConfig",
      "BCOConfig",    "XPOConfig", "NashMDConfig", "AlignPropConfig", "DDPOConfig"};
  return contains(kTrl, name);
}

bool is_arguments_class(std::string_view name) {
  return is_training_arguments_class(name) || is_trl_config_class(name);
}

bool is_arguments_call(const PyCall& c) {
  if (is_training_arguments_class(c.name)) return true;
  return c.name.ends_with("Config") && (c.callee == c.name || c.callee.starts_with("trl."));
}

bool default_gradient_checkpointing(std::string_view cls) {
  return is_trl_config_class(cls);
}

std::optional<bool> parse_cli_bool(std::string_view s) {
  std::string l(s);
  for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (l == "yes" || l == "true" || l == "t" || l == "y" || l == "1") return true;
  if (l == "no" || l == "false" || l == "f" || l == "n" || l == "0") return false;
  return std::nullopt;
}

std::span<const std::string_view> fsdp_config_read_keys() {
  return kReadKeys;
}
std::span<const std::string_view> fsdp_config_fsdp1_only_keys() {
  return kFsdp1Only;
}
std::span<const std::string_view> fsdp_config_ignored_keys() {
  return kIgnored;
}

std::span<const PassedKey> fsdp_passed_keys() { return kPassed; }

std::string_view fsdp_config_key(std::string_view written) {
  if (written.starts_with(kPrefix)) written.remove_prefix(kPrefix.size());
  return written;
}

std::optional<std::size_t> fsdp_config_pick(std::span<const std::string_view> written, std::string_view key) {
  std::optional<std::size_t> plain;
  std::optional<std::size_t> prefixed;
  for (std::size_t i = 0; i < written.size(); ++i) {
    if (fsdp_config_key(written[i]) != key) continue;
    (written[i].starts_with(kPrefix) ? prefixed : plain) = i;
  }
  return prefixed ? prefixed : plain;
}

const Value* fsdp_config_get(const Value& dict, std::string_view key) {
  std::vector<std::string_view> written;
  written.reserve(dict.fields.size());
  for (const auto& f : dict.fields) written.push_back(f.key);
  const auto at = fsdp_config_pick(written, key);
  return at ? &dict.fields[*at].value : nullptr;
}

bool trainer_fsdp_modelled() { return target_versions().at_least("transformers", Version{5, 10, 0}); }

std::optional<int> fsdp_version(const Value* v) {
  if (v == nullptr) return trainer_fsdp_modelled() ? std::optional<int>(kDefaultFsdpVersion) : std::nullopt;
  if (v->kind == ValueKind::Int && (v->integer == 1 || v->integer == 2)) return static_cast<int>(v->integer);
  if (v->kind == ValueKind::String && (v->text == "1" || v->text == "2")) return v->text[0] - '0';
  return std::nullopt;
}

bool looks_like_args_config(const parse::Node& m) {
  static constexpr std::array<std::string_view, 12> kKeys = {
      "learning_rate", "per_device_train_batch_size", "output_dir", "num_train_epochs", "lr_scheduler_type",
      "warmup_ratio", "logging_steps", "save_strategy", "gradient_checkpointing", "max_steps", "weight_decay",
      "per_device_eval_batch_size"};
  std::size_t n = 0;
  for (std::string_view k : kKeys) n += m.find(k) != nullptr ? 1 : 0;
  return n >= 2;
}

bool looks_like_fsdp_config(const parse::Node& m) {
  if (m.entries.empty()) return false;
  std::size_t known = 0;
  std::size_t prefixed = 0;
  for (const parse::Entry& e : m.entries) {
    const std::string_view k = fsdp_config_key(e.key.text);
    if (k.size() != e.key.text.size()) ++prefixed;
    if (contains(kReadKeys, k) || contains(kIgnored, k)) ++known;
  }
  return known * 2 >= m.entries.size() && (prefixed >= 1 || known >= 2);
}

}  // namespace lint::model::trainer
