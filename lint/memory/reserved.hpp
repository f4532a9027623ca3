// Peak reserved memory of a training step: PyTorch's caching allocator per CUDA stream (docs/memory.md, "Reserved
// memory").
#pragma once

#include <cstdint>
#include <vector>

#include "lint/memory/estimate.hpp"

namespace lint::memory {

enum class Wrap : std::uint8_t { None, Fsdp1, Fsdp2 };

/// What the reserved estimate needs from the allocated one.
struct Moments {
  double p1 = 0, p2 = 0, p3 = 0;                ///< allocated at the three moments
  double gathered_p1 = 0, gathered_p2 = 0;      ///< of which gathered (unsharded) parameters
  double logits = 0;                            ///< logit elements (tokens x vocabulary)
  double logit_bytes = 2;                       ///< dtype of the head's output
  double unit = 0, root = 0, all_gathered = 0;  ///< compute-dtype bytes of the largest layer unit, root unit, model
  double steady = 0;
  double acts = 0;  ///< saved activations at the start of backward
  /// FSDP1 wrapping: each unit's parameters are materialised, flattened into one FlatParameter and sharded (bytes
  /// of each parameter of the largest decoder layer and of the root unit, storage dtype); empty when not FSDP1.
  std::vector<double> layer_params, root_params;
  double shard_div = 1;
  int layers = 0;
  bool offload = false;
  Wrap wrap = Wrap::None;
  bool resident = false;            ///< the model is on the GPU before wrapping
  std::vector<double> upcast_root;  ///< 16-bit parameters prepare_model_for_kbit_training makes fp32 (bytes)
  double gathered_compute = 0;      ///< parameters gathered onto the compute stream at the start of backward
  double prefetched_p1 = 0;         ///< FSDP2: the unit prefetched at the start of backward (all-gather buffer)
  /// FSDP2 with reduce_dtype=float32: the fp32 reduce-scatter inputs of a trained unit, in backward order (the head's
  /// unit first, the decoder layers, the embedding's last), bytes; empty when no unit's gradient is cast up.
  std::vector<double> reduce_inputs;
  /// FSDP2: the optimizer's state tensors on the GPU in creation order, bytes (created by the first optimizer step).
  std::vector<double> opt_tensors;
  /// FSDP2 full fine-tune, the forward replayed unit by unit: a decoder layer's gathered parameters in the compute
  /// dtype (one tensor each, copied out of the all-gather buffer), the temporaries its forward frees (bytes), and
  /// whether its gathered parameters are freed after its forward (reshard_after_forward not False).
  std::vector<double> layer_gathered, layer_temps;
  bool layer_reshard = true;
  /// The largest tensor a decoder layer frees within its forward (the RMSNorm's fp32 square; the MLP intermediate
  /// when checkpointing, or when the down projection's input is not saved), bytes.
  double forward_temporary = 0;
  double sharded_grads = 0;  ///< FSDP full fine-tune: every unit's sharded gradient (parameter dtype)
  double accumulated = 0;    ///< gradient accumulation: the earlier micro-steps' gradients held at P1 and P2
  bool p2_has_grads = false;
  double unit_grad = 0;  ///< unsharded gradient of the largest unit in backward (full fine-tune)
  double mp_shards = 0;  ///< FSDP1 mixed precision: low-precision copies of the shards in flight  ///< the backward
                         ///< moment is the end of backward (gradients complete)
  std::vector<double> root_grad_parts;  ///< FSDP1 full fine-tune: the root unit's gradients (head first), bytes
  double root_flat_grad = 0;            ///< FSDP1 full fine-tune: the root FlatParameter's unsharded gradient, bytes
  double tied_grad_sum = 0;             ///< a tied head: the sum of the shared weight's two gradients, bytes
  /// DeepSpeed ZeRO-1/2 full fine-tune: the 16-bit trainable parameters as first placed on the GPU, one block each,
  /// freed when DeepSpeed copies them into its flat buffer: they stay cached beside the peak (bytes).
  double cached_flattened = 0;
};

/// Peak reserved bytes per rank for the inputs `in` whose allocated moments are `m`.
double reserved_estimate(const Inputs& in, const Moments& m);

}  // namespace lint::memory
