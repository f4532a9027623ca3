#include "lint/model/classify.hpp"

#include <array>

#include "lint/model/accelerate/schema.hpp"
#include "lint/model/axolotl/axolotl.hpp"
#include "lint/model/deepspeed/deepspeed.hpp"
#include "lint/model/llamafactory/llamafactory.hpp"
#include "lint/model/torchtitan/torchtitan.hpp"
#include "lint/model/trainer/schema.hpp"

namespace lint::model {

DocKind classify_config(const parse::ConfigDocument& doc, parse::Format format) {
  if (!doc.has_root || !doc.root.is_map()) return DocKind::Unknown;
  const parse::Node& m = doc.root;
  switch (format) {
    case parse::Format::Yaml:
      if (axolotl::looks_like_config(m)) return DocKind::AxolotlConfig;
      if (llamafactory::looks_like_config(m)) return DocKind::LlamaFactoryConfig;
      if (accelerate::looks_like_config(m)) return DocKind::AccelerateConfig;
      if (trainer::looks_like_args_config(m)) return DocKind::TrainerArgsConfig;
      return DocKind::Unknown;
    case parse::Format::Json:
      if (accelerate::looks_like_config(m)) return DocKind::AccelerateConfig;
      if (deepspeed::looks_like_config(m)) return DocKind::DeepSpeedConfig;
      if (trainer::looks_like_fsdp_config(m)) return DocKind::TrainerFsdpConfig;
      return DocKind::Unknown;
    case parse::Format::Toml:
      return torchtitan::looks_like_config(m) ? DocKind::TorchtitanConfig : DocKind::Unknown;
    default:
      return DocKind::Unknown;
  }
}

bool python_may_matter(std::string_view text) {
  // A script that no needle matches but that a launch runs is still read: the binder parses it when it binds it
  // (bind::DocumentSet::find_or_load), so its own command line (LCH007) is seen without reading every argparse
  // script of a repository.
  // `type=LoraConfig`: an xtuner config's lazy `lora=dict(type=LoraConfig, ...)` (model::lazy_config_type).
  static constexpr std::array<std::string_view, 18> kNeedles = {"FullyShardedDataParallel",
                                                                "fully_shard",
                                                                "TrainingArguments",
                                                                "Accelerator",
                                                                "FSDPStrategy",
                                                                "Config(",
                                                                "gradient_checkpointing",
                                                                "activation_checkpointing",
                                                                "fsdp",
                                                                "deepspeed",
                                                                "Trainer(",
                                                                "checkpoint_wrapper",
                                                                "prepare_model_for_kbit_training",
                                                                "HfArgumentParser",
                                                                "load_in_",
                                                                "device_map",
                                                                "unsloth",
                                                                "type=LoraConfig"};
  for (std::string_view n : kNeedles) {
    if (text.find(n) != std::string_view::npos) return true;
  }
  return false;
}

bool toml_may_be_torchtitan(std::string_view text) {
  std::size_t sections = 0;
  bool parallelism = false;
  bool escaped = false;  // a quoted name with an escape could spell any name
  const auto count = [&](std::string_view name) {
    if (torchtitan::is_section(name)) ++sections;
    if (name == "parallelism") parallelism = true;
  };
  const auto bare = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  };
  std::size_t i = 0;
  while (i < text.size() && !escaped) {
    std::size_t end = text.find('\n', i);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(i, end - i);
    i = end + 1;
    const auto skip_space = [&] {
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    };
    skip_space();
    while (!line.empty() && line.front() == '[') {
      line.remove_prefix(1);
      skip_space();
    }
    if (line.empty()) continue;
    if (line.front() == '"' || line.front() == '\'') {
      const std::size_t close = line.find(line.front(), 1);
      const std::string_view name = line.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
      if (line.front() == '"' && name.find('\\') != std::string_view::npos) escaped = true;
      count(name);
      continue;
    }
    std::size_t n = 0;
    while (n < line.size() && bare(line[n])) ++n;
    if (n > 0) count(line.substr(0, n));
  }
  return escaped || sections >= 2 || (sections == 1 && parallelism);
}

bool config_text_may_matter(std::string_view text) {
  static constexpr std::array<std::string_view, 10> kNeedles = {"distributed_type",
                                                                "fsdp",
                                                                "zero_optimization",
                                                                "deepspeed",
                                                                "train_micro_batch_size_per_gpu",
                                                                "parallelism",
                                                                "compute_environment",
                                                                "num_processes",
                                                                "base_model",
                                                                "sharding_strategy"};
  for (std::string_view n : kNeedles) {
    if (text.find(n) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace lint::model
