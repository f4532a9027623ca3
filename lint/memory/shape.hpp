// The training shape of a launch, read from its files: which model, LoRA / QLoRA / full fine-tune, dtypes,
// optimizer, sequence length, micro-batch, checkpointing, world size and the sharding the launch asks for.
// Every value says where it was read; a value not read stays unset (the estimate shows it as a range).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lint/memory/geometry.hpp"
#include "lint/model/launch.hpp"

namespace lint::memory {

/// Where a value of the shape was read (for messages and `assumptions`).
struct Site {
  std::string path;
  source::Region region;
  std::string spelled;  ///< the key or argument as written (`lora_r`, `per_device_train_batch_size=`)
};

template <typename T>
struct Read {
  std::optional<T> value;
  Site site;
  [[nodiscard]] bool known() const { return value.has_value(); }
  void set(T v, Site s) {
    value = std::move(v);
    site = std::move(s);
  }
};

enum class Training : std::uint8_t { Unknown, Full, Lora, QLora };
enum class Optimizer : std::uint8_t { Unknown, AdamW, Adam8bit, Sgd, Adafactor };
enum class Strategy : std::uint8_t { Unknown, Single, Ddp, Fsdp1, Fsdp2, DeepSpeed };

struct TrainingShape {
  Read<std::string> model_id;        ///< hub id, local path or torchtitan `name/flavor`
  std::optional<Geometry> geometry;  ///< known shape of that model
  Read<Training> training;
  Read<std::int64_t> lora_r;
  Read<std::vector<std::string>> lora_targets;  ///< module names; {"all-linear"} for every linear layer
  Read<double> lora_dropout;
  Read<bool> kbit_prep;               ///< peft's prepare_model_for_kbit_training is called (QLoRA)
  Read<bool> double_quant;            ///< bitsandbytes `bnb_4bit_use_double_quant`
  bool peft_wrap_policy = false;      ///< PEFT's fsdp_auto_wrap_policy is installed (by the script or the Trainer)
  Read<int> base_bytes;               ///< storage bytes of the loaded weights (2 bf16/fp16, 4 fp32)
  Read<std::string> mixed_precision;  ///< bf16, fp16, no
  Read<Optimizer> optimizer;
  Read<std::int64_t> seq_len;
  Read<std::int64_t> micro_batch;
  Read<std::int64_t> grad_accum;
  Read<bool> checkpointing;
  Read<std::int64_t> world_size;
  Read<std::int64_t> gpus_per_node;
  Read<std::int64_t> tp_degree;  ///< tensor parallel
  Read<std::int64_t> cp_degree;  ///< context parallel
  Strategy strategy = Strategy::Unknown;
  std::string sharding;           ///< FSDP1 strategy (`FULL_SHARD`); FSDP2 `reshard_after_forward` as text
  Read<std::int64_t> zero_stage;  ///< DeepSpeed
  /// DeepSpeed `reduce_bucket_size` / `stage3_max_live_parameters` as numbers; unset when absent or "auto".
  std::optional<double> ds_reduce_bucket;
  std::optional<double> ds_max_live;
  bool ds_reduce_bucket_auto = false;  ///< "auto": the HF Trainer / accelerate fill hidden_size^2
  bool offload_params = false;
  bool offload_optimizer = false;
  std::optional<bool> use_orig_params;
  std::string backward_prefetch;   ///< BACKWARD_PRE, BACKWARD_POST, NO_PREFETCH; empty when unknown
  std::string wrap_policy;         ///< TRANSFORMER_BASED_WRAP, SIZE_BASED_WRAP, NO_WRAP, PEFT; empty unknown
  std::vector<Site> wrap_classes;  ///< each `transformer_layer_cls_to_wrap` class as written
  std::vector<std::string> notes;  ///< what was read but not modelled
};

/// Reads the shape of `launch` from its documents (configs, script calls, launch-command arguments) and the
/// resolved effective values. Reads a local `config.json` when the model path is a folder next to a launch file.
/// Computed once per launch (model::Launch::derived).
const TrainingShape& read_training_shape(const model::Launch& launch);

}  // namespace lint::memory
