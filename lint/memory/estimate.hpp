// The per-GPU memory estimate of a training launch: what is resident when, for DDP, FSDP1 (each strategy,
// prefetch, CPU offload), FSDP2 (reshard_after_forward) and DeepSpeed ZeRO 0-3 with offload. The model and its
// validation are in docs/memory.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lint/memory/geometry.hpp"
#include "lint/memory/shape.hpp"

namespace lint::memory {

/// Fully specified inputs of one estimate (unknowns already replaced by an assumed value).
struct Inputs {
  Geometry geometry;
  Training training = Training::Lora;
  std::int64_t lora_r = 16;
  std::vector<std::string> lora_targets{"q_proj", "v_proj"};
  int base_bytes = 2;           ///< loaded weights
  bool mixed_precision = true;  ///< bf16/fp16 compute with autocast (accelerate / Trainer)
  Optimizer optimizer = Optimizer::AdamW;
  std::int64_t seq_len = 2048;
  std::int64_t micro_batch = 1;
  std::int64_t grad_accum = 1;  ///< micro-steps per optimizer step
  bool checkpointing = false;
  std::int64_t world_size = 8;
  std::int64_t shard_group = 8;  ///< HYBRID_SHARD: GPUs per node
  Strategy strategy = Strategy::Ddp;
  std::string sharding = "FULL_SHARD";  ///< FSDP1 strategy; FSDP2 "true"/"false"/an int
  int zero_stage = 0;
  /// DeepSpeed `reduce_bucket_size` and `stage3_max_live_parameters` (elements), DeepSpeed's defaults unless the
  /// JSON sets them (the HF Trainer and accelerate fill "auto" with hidden_size^2).
  double ds_reduce_bucket = 5e8;
  double ds_max_live = 1e9;
  /// ZeRO-3: the model is built inside `deepspeed.zero.Init` (the HF Trainer's path, accelerate's `zero3_init_flag`),
  /// rather than whole and then partitioned by `deepspeed.initialize`.
  bool ds_zero_init = true;
  bool offload_params = false;
  bool offload_optimizer = false;
  bool use_orig_params = true;
  std::string backward_prefetch = "BACKWARD_PRE";
  /// FSDP1 units holding frozen and trainable parameters together (use_orig_params, decoder-layer wrap without
  /// PEFT's policy): the frozen weights get gradients too.
  bool mixed_units = false;
  double lora_dropout = 0;
  /// QLoRA: peft's prepare_model_for_kbit_training ran (every parameter that is not 4-bit becomes fp32).
  bool kbit_prep = false;
  /// QLoRA: bitsandbytes double quantization (8-bit absmax with fp32 second-level constants).
  bool double_quant = true;
};

struct Term {
  std::string name;  ///< parameters, gradients, optimizer_state, gathered_units, activations, logits, ...
  double bytes = 0;
  std::string detail;
};

struct Estimate {
  bool available = false;
  std::string unavailable;  ///< why there is no estimate (model not known, ...)
  std::string label;        ///< `FSDP1 SHARD_GRAD_OP, 8 GPUs`
  double steady = 0;        ///< allocated between steps (parameters, optimizer state, persistent buffers)
  double peak = 0;          ///< peak allocated per GPU (central assumptions)
  double peak_low = 0;      ///< over the range of what is not known
  double peak_high = 0;
  double reserved = 0;          ///< peak reserved by the caching allocator (central)
  std::string peak_phase;       ///< forward/backward or optimizer step
  std::vector<Term> breakdown;  ///< at the peak; sums to `peak`
  std::vector<std::string> assumptions;
  std::vector<std::string> unknowns;  ///< the inputs the range spans
  std::int64_t params = 0;
  std::int64_t trainable = 0;
};

/// The estimate for fully specified inputs (no range).
Estimate estimate(const Inputs& in);

/// The estimate for a launch's shape: unknown inputs are assumed (central) and spanned (low/high), and every
/// assumption is listed. `override_sharding` replaces the sharding (e.g. to compare FULL_SHARD).
Estimate estimate_launch(const TrainingShape& shape, std::optional<std::string> override_sharding = std::nullopt);

/// The inputs `estimate_launch` uses at its central point (nullopt when the model is not known).
std::optional<Inputs> central_inputs(const TrainingShape& shape, std::vector<std::string>* assumptions = nullptr,
                                     std::vector<std::string>* unknowns = nullptr);

}  // namespace lint::memory
