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
  static constexpr std::array<std::string_view, 17> kNeedles = {"FullyShardedDataParallel",
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
                                                                "unsloth"};
  for (std::string_view n : kNeedles) {
    if (text.find(n) != std::string_view::npos) return true;
  }
  return false;
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
