#include "lint/model/classify.hpp"

#include <array>

#include "lint/model/accelerate_schema.hpp"

namespace lint::model {

namespace {

bool has(const parse::Node& m, std::string_view key) { return m.find(key) != nullptr; }

std::size_t count_keys(const parse::Node& m, std::span<const std::string_view> keys) {
  std::size_t n = 0;
  for (std::string_view k : keys) n += has(m, k) ? 1 : 0;
  return n;
}

bool looks_axolotl(const parse::Node& m) {
  static constexpr std::array<std::string_view, 10> kKeys = {
      "adapter", "datasets", "micro_batch_size", "sequence_len", "fsdp", "fsdp_config", "load_in_4bit",
      "lora_r", "num_epochs", "gradient_accumulation_steps"};
  return has(m, "base_model") && count_keys(m, kKeys) >= 1;
}

bool looks_accelerate(const parse::Node& m) {
  if (has(m, "distributed_type") || has(m, "compute_environment")) return true;
  static constexpr std::array<std::string_view, 7> kKeys = {"num_processes", "machine_rank", "num_machines",
                                                            "main_training_function", "use_cpu", "gpu_ids",
                                                            "rdzv_backend"};
  const bool section = has(m, "fsdp_config") || has(m, "deepspeed_config");
  return section && count_keys(m, kKeys) >= 1;
}

bool looks_deepspeed(const parse::Node& m) {
  static constexpr std::array<std::string_view, 6> kStrong = {
      "zero_optimization", "train_micro_batch_size_per_gpu", "train_batch_size", "zero_allow_untested_optimizer",
      "zero_force_ds_cpu_optimizer", "steps_per_print"};
  if (count_keys(m, kStrong) >= 1) return true;
  // {"fp16": {"enabled": ...}} / {"bf16": {"enabled": ...}} with an optimizer or gradient settings.
  static constexpr std::array<std::string_view, 3> kWeak = {"gradient_accumulation_steps", "gradient_clipping",
                                                            "optimizer"};
  for (std::string_view p : {std::string_view("fp16"), std::string_view("bf16")}) {
    const parse::Node* n = m.find(p);
    if (n != nullptr && n->is_map() && n->find("enabled") != nullptr && count_keys(m, kWeak) >= 1) return true;
  }
  return false;
}

bool looks_trainer_fsdp_config(const parse::Node& m) {
  // transformers 5.17 reads these keys (knowledge/trainer_deepspeed_torchtitan.md §A.2), with or without `fsdp_`.
  static constexpr std::array<std::string_view, 16> kKeys = {
      "version", "cpu_offload", "auto_wrap_policy", "min_num_params", "transformer_layer_cls_to_wrap",
      "cpu_ram_efficient_loading", "state_dict_type", "activation_checkpointing", "reshard_after_forward",
      "forward_prefetch", "backward_prefetch", "use_orig_params", "sync_module_states", "limit_all_gathers", "xla",
      "sharding_strategy"};
  if (m.entries.empty()) return false;
  std::size_t known = 0;
  std::size_t prefixed = 0;
  for (const parse::Entry& e : m.entries) {
    std::string_view k = e.key.text;
    if (k.starts_with("fsdp_")) {
      ++prefixed;
      k.remove_prefix(5);
    }
    for (std::string_view c : kKeys) known += (c == k) ? 1 : 0;
  }
  return known * 2 >= m.entries.size() && (prefixed >= 1 || known >= 2);
}

bool looks_torchtitan(const parse::Node& m) {
  if (has(m, "project") || has(m, "tool") || has(m, "build-system")) return false;
  static constexpr std::array<std::string_view, 12> kSections = {
      "job", "model", "optimizer", "lr_scheduler", "training", "parallelism", "checkpoint", "activation_checkpoint",
      "compile", "metrics", "profiling", "quantize"};
  const std::size_t n = count_keys(m, kSections);
  return n >= 2 || (n == 1 && has(m, "parallelism"));
}

}  // namespace

DocKind classify_config(const parse::ConfigDocument& doc, parse::Format format) {
  if (!doc.has_root || !doc.root.is_map()) return DocKind::Unknown;
  const parse::Node& m = doc.root;
  switch (format) {
    case parse::Format::Yaml:
      if (looks_axolotl(m)) return DocKind::AxolotlConfig;
      // LLaMA-Factory: HfArgumentParser fields in YAML (model_name_or_path, stage, finetuning_type, ...).
      if (has(m, "model_name_or_path") && (has(m, "stage") || has(m, "finetuning_type")))
        return DocKind::LlamaFactoryConfig;
      if (looks_accelerate(m)) return DocKind::AccelerateConfig;
      return DocKind::Unknown;
    case parse::Format::Json:
      if (looks_accelerate(m)) return DocKind::AccelerateConfig;
      if (looks_deepspeed(m)) return DocKind::DeepSpeedConfig;
      if (looks_trainer_fsdp_config(m)) return DocKind::TrainerFsdpConfig;
      return DocKind::Unknown;
    case parse::Format::Toml:
      return looks_torchtitan(m) ? DocKind::TorchtitanConfig : DocKind::Unknown;
    default:
      return DocKind::Unknown;
  }
}

bool python_may_matter(std::string_view text) {
  // `ArgumentParser`: a launched script's own command line matters (LCH007: options a launcher appends).
  static constexpr std::array<std::string_view, 15> kNeedles = {
      "FullyShardedDataParallel", "fully_shard", "TrainingArguments", "Accelerator", "FSDPStrategy", "Config(",
      "gradient_checkpointing", "activation_checkpointing", "fsdp", "deepspeed", "Trainer(", "checkpoint_wrapper",
      "prepare_model_for_kbit_training", "HfArgumentParser", "ArgumentParser"};
  for (std::string_view n : kNeedles) {
    if (text.find(n) != std::string_view::npos) return true;
  }
  return false;
}

bool config_text_may_matter(std::string_view text) {
  static constexpr std::array<std::string_view, 10> kNeedles = {
      "distributed_type", "fsdp", "zero_optimization", "deepspeed", "train_micro_batch_size_per_gpu", "parallelism",
      "compute_environment", "num_processes", "base_model", "sharding_strategy"};
  for (std::string_view n : kNeedles) {
    if (text.find(n) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace lint::model
