#include "lint/memory/reserved.hpp"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>

#include "lint/memory/allocator.hpp"

namespace lint::memory {

namespace {

bool is(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

constexpr double kSmallRequest = 1024.0 * 1024.0;  // largest request served from the small-block pool
constexpr double kCublasWorkspace = 32.0 * 1024.0 * 1024.0;

double segment_bytes(double bytes) {
  return CachingAllocatorModel::segment_size(bytes);
}

/// Replays FSDP1's wrapping (torch/distributed/fsdp/_init_utils.py: materialise a unit, `flatten_tensors` into a
/// FlatParameter, keep 1/N of it) and the loss's blocks at the start of backward on the compute stream's pool.
/// Returns the reserved bytes of those blocks and the bytes of them still allocated (the shards).
std::pair<double, double> replay_compute_pool(const Moments& m, const std::function<double(double)>& rest_of) {
  CachingAllocatorModel a;
  double kept = 0;
  auto keep = [&](std::size_t shard, double bytes) {
    // With CPU offload the shard moves to host memory (pinned); otherwise it stays, carved out of cached blocks.
    if (m.offload)
      a.release(shard);
    else
      kept += CachingAllocatorModel::round_request(bytes);
  };
  auto materialise = [&](const std::vector<double>& params) {
    std::vector<std::size_t> hs;
    for (double b : params) hs.push_back(a.allocate(b));
    return hs;
  };
  // FSDP1: flatten_tensors concatenates the unit's parameters into one FlatParameter, which is sharded.
  auto wrap_fsdp1 = [&](const std::vector<double>& params, const std::vector<std::size_t>& hs) {
    double total = 0;
    for (double b : params) total += b;
    const std::size_t flat = a.allocate(total);
    for (std::size_t h : hs) a.release(h);
    const std::size_t shard = a.allocate(total / m.shard_div);
    a.release(flat);
    keep(shard, total / m.shard_div);
  };
  // FSDP2: fully_shard copies each parameter's shard into its own tensor and drops the parameter.
  auto wrap_fsdp2 = [&](const std::vector<double>& params, const std::vector<std::size_t>& hs) {
    for (std::size_t i = 0; i < params.size(); ++i) {
      const std::size_t shard = a.allocate(params[i] / m.shard_div);
      a.release(hs[i]);
      keep(shard, params[i] / m.shard_div);
    }
  };
  const int units = m.wrap == Wrap::None ? 0 : m.layers;
  if (m.resident && m.wrap != Wrap::None) {
    // The whole model is on the GPU before wrapping (a quantized model: bitsandbytes quantizes on the GPU): every
    // original parameter's block is freed by wrapping and stays cached.
    std::vector<std::vector<std::size_t>> layer_hs;
    for (int i = 0; i < units; ++i) layer_hs.push_back(materialise(m.layer_params));
    const auto root_hs = materialise(m.root_params);
    for (int i = 0; i < units; ++i)
      m.wrap == Wrap::Fsdp1 ? wrap_fsdp1(m.layer_params, layer_hs[static_cast<std::size_t>(i)])
                            : wrap_fsdp2(m.layer_params, layer_hs[static_cast<std::size_t>(i)]);
    m.wrap == Wrap::Fsdp1 ? wrap_fsdp1(m.root_params, root_hs) : wrap_fsdp2(m.root_params, root_hs);
  } else if (m.wrap == Wrap::Fsdp1) {
    // Materialised unit by unit (meta device + param_init_fn, or moved from the CPU by device_id); auto-wrapping
    // wraps the decoder layers first (each reuses the previous one's freed blocks), the root last.
    for (int i = 0; i < units; ++i) wrap_fsdp1(m.layer_params, materialise(m.layer_params));
    wrap_fsdp1(m.root_params, materialise(m.root_params));
  } else if (!m.upcast_root.empty()) {
    // prepare_model_for_kbit_training replaces each 16-bit parameter by an fp32 copy: the 16-bit blocks stay cached.
    const auto old = materialise(m.upcast_root);
    for (double b : m.upcast_root) a.allocate(2 * b);
    for (std::size_t h : old) a.release(h);
    for (double b : m.upcast_root) kept += CachingAllocatorModel::round_request(2 * b);
  }
  // One training step on the compute stream. Forward: parameters gathered onto the compute stream (FSDP2 copies
  // each unit out of its all-gather buffer), the saved activations (many tensors of mixed sizes), then the loss:
  // the head's logits, their fp32 copy and the log-softmax (transformers' ForCausalLMLoss); the copy and the logits
  // are freed when the loss returns. Backward of the loss: nll_loss's gradient, log_softmax's gradient (the freed
  // 16-bit logits' block is too small for it), then the 16-bit gradient of the logits.
  std::size_t workspace = 0;
  auto step = [&] {
    std::vector<std::size_t> gathered, acts;
    if (!m.layer_gathered.empty() && m.layers > 0) {
      // FSDP2 full fine-tune, unit by unit: each decoder layer's pre-forward copies its parameters out of the
      // all-gather buffer into one compute-stream tensor each (`foreach_all_gather_copy_out`), its forward allocates
      // and frees its temporaries (the norms' fp32 input and square, the MLP's T x I tensors) and leaves its saved
      // activations; its parameters are freed after its forward unless kept gathered (reshard_after_forward=False),
      // so the next layer's copies take the freed temporaries' blocks and its own temporaries new ones. What the
      // first optimizer step finds free after the step depends on these mid-size blocks (measured: the AdamW state
      // of q15_full_f2f_ac1 went into the 70 MiB blocks of the MLP's temporaries, and its second step added nothing).
      double layers_gathered = 0;
      for (double b : m.layer_gathered) layers_gathered += b;
      const double root = m.gathered_compute - (m.layer_reshard ? 0.0 : m.layers * layers_gathered);
      gathered = a.allocate_spread(std::max(0.0, root));
      for (int l = 0; l < m.layers; ++l) {
        std::vector<std::size_t> g, t;
        for (double b : m.layer_gathered) g.push_back(a.allocate(b));
        for (double b : m.layer_temps) t.push_back(a.allocate(b));
        for (std::size_t h : t) a.release(h);
        for (std::size_t h : a.allocate_spread(m.acts / m.layers)) acts.push_back(h);
        if (m.layer_reshard)
          for (std::size_t h : g) a.release(h);
        else
          gathered.insert(gathered.end(), g.begin(), g.end());
      }
    } else {
      gathered = a.allocate_spread(m.gathered_compute);
      acts = a.allocate_spread(m.acts);
    }
    const double L = m.logits;
    const std::size_t logits = a.allocate(m.logit_bytes * L);
    const std::size_t upcast = m.logit_bytes < 4 ? a.allocate(4 * L) : 0;
    const std::size_t logp = a.allocate(4 * L);
    if (upcast) a.release(upcast);
    a.release(logits);
    const std::size_t g1 = a.allocate(4 * L);
    const std::size_t g2 = a.allocate(4 * L);
    a.release(g1);
    const std::size_t g3 = m.logit_bytes < 4 ? a.allocate(m.logit_bytes * L) : 0;
    a.release(g2);
    a.release(logp);
    // The head's backward matmul is the autograd engine thread's first cuBLAS call: its handle's workspace (32 MiB
    // on Hopper, aten/src/ATen/cuda/CublasHandlePool.cpp) is allocated through the caching allocator and kept for
    // the process. Best fit gives it the smallest cached free block that holds it: a layer's MLP intermediate freed
    // in forward when that holds 32 MiB, else one of the loss's blocks just freed, which the next step then finds
    // split (measured: CUBLAS_WORKSPACE_CONFIG=:0:0 removes the second step's extra loss block,
    // v7_q3_lora_qv_r8_f2t_ac1). The forward thread's workspace is taken from a pool still nearly empty.
    if (!workspace && m.forward_temporary < kCublasWorkspace) workspace = a.allocate(kCublasWorkspace);
    // The head's weight gradient is produced now and waits for the root unit's reduce-scatter at the end of
    // backward (FSDP1 trains the root unit: embeddings and head).
    const std::size_t head_grad = m.root_grad_parts.empty() ? 0 : a.allocate(m.root_grad_parts.front());
    if (g3) a.release(g3);
    // FSDP2 with reduce_dtype=float32 (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py `foreach_reduce`):
    // each trained unit's post-backward copies its 16-bit unsharded gradients into one fp32 reduce-scatter input
    // allocated on the compute stream, and keeps it until the next unit's post-backward has waited on the
    // reduce-scatter (`comm_ctx.reduce_scatter_state`): one such input at a time, freed before the next is
    // allocated. The head's unit and the decoder layers run while the activations are still held; the embedding's,
    // last, after them.
    const std::size_t n_rs = m.reduce_inputs.size();
    for (std::size_t i = 0; i + 1 < n_rs; ++i) a.release(a.allocate(m.reduce_inputs[i]));
    for (std::size_t h : acts) a.release(h);
    for (std::size_t h : gathered) a.release(h);
    if (n_rs > 0) a.release(a.allocate(m.reduce_inputs.back()));
    if (head_grad) {
      // End of backward: the embedding's gradient. The FlatParameter's gradient assembled from both is allocated on
      // the unshard stream (reserved_estimate's side pool), not here.
      std::vector<std::size_t> parts{head_grad};
      for (std::size_t i = 1; i < m.root_grad_parts.size(); ++i) parts.push_back(a.allocate(m.root_grad_parts[i]));
      for (std::size_t h : parts) a.release(h);
    }
  };
  step();
  if (!m.opt_tensors.empty()) {
    // FSDP2: the first optimizer step creates the state tensor by tensor (AdamW `_init_group`: exp_avg, exp_avg_sq
    // per parameter shard, in parameter order), each taking the smallest cached block of the first step that holds
    // it; those of 1 MiB or less come from the small-block pool and split none of these. The second step's
    // transients find the blocks split.
    for (double t : m.opt_tensors)
      if (t > kSmallRequest) a.allocate(t);
    step();
  } else if (rest_of) {
    // The optimizer state, allocated by the first optimizer step, is carved out of the blocks this step left free;
    // the next step's transients find those blocks split (docs/memory.md, "Reserved memory").
    a.allocate_spread(rest_of(kept));
    step();
  } else if (workspace) {
    step();  // the loss's blocks, one of them split by the workspace
  }
  return {a.reserved(), kept};
}

constexpr double kFragmentation = 0.07;

/// Peak reserved memory: the caching allocator keeps one pool of segments per CUDA stream and never gives a segment
/// back, so reserved = Σ over pools of the largest that pool ever held, plus the blocks that were free but too small
/// for the request that made the pool grow.
}  // namespace

double reserved_estimate(const Inputs& in, const Moments& m) {
  const bool fsdp1 = in.strategy == Strategy::Fsdp1 && in.sharding != "NO_SHARD" && in.world_size > 1;
  const bool fsdp2 = in.strategy == Strategy::Fsdp2 && in.world_size > 1;
  const bool zero3 = in.strategy == Strategy::DeepSpeed && in.zero_stage >= 3 && in.world_size > 1;
  // Side-stream pools. FSDP1 all-gathers each FlatParameter into an unsharded buffer allocated on its unshard
  // stream (torch/distributed/fsdp/_runtime_utils.py `_unshard`): that pool holds the root unit and, with the
  // all-gather rate limiter, up to two layer units in flight; SHARD_GRAD_OP keeps every unit. FSDP2 and ZeRO-3
  // all-gather into one flat buffer per unit on their own stream and copy out to the compute stream: two units'
  // buffers in flight.
  double side_pool = 0, on_side_p1 = 0, on_side_p2 = 0;
  if (fsdp1) {
    const bool keep = is(in.sharding, {"SHARD_GRAD_OP", "_HYBRID_SHARD_ZERO2", "HYBRID_SHARD_ZERO2"});
    side_pool = keep ? segment_bytes(m.all_gathered) : segment_bytes(m.root) + 2 * segment_bytes(m.unit);
    on_side_p1 = m.gathered_p1;
    on_side_p2 = m.gathered_p2;
    // Under mixed precision each unit's shard is first cast to the compute dtype on the same stream
    // (`_use_low_precision_shard`): the root's and two layer units' low-precision shards.
    side_pool += m.mp_shards;
    if (m.root_flat_grad > 0) {
      // A trained FlatParameter's views are made on the unshard stream (`_use_unsharded_views` runs inside
      // `_unshard`'s stream context, torch/distributed/fsdp/_runtime_utils.py), so autograd runs their backward
      // there: each unit's unsharded gradient is assembled in the unshard stream's pool (one layer unit's at a
      // time; the root's, held to the end of backward), and a tied head's two gradients are summed there too.
      side_pool += segment_bytes(m.unit) + segment_bytes(m.root_flat_grad) + segment_bytes(m.tied_grad_sum);
      on_side_p2 += m.unit_grad + m.root_flat_grad;
    }
  } else if (fsdp2 || zero3) {
    // Without resharding after forward (FSDP2 `reshard_after_forward=False`) nothing is gathered again in
    // backward: one buffer at a time.
    const double in_flight = (fsdp2 && in.sharding == "false") ? 1.0 : 2.0;
    side_pool = in_flight * segment_bytes(std::max(m.unit, m.root / 2));
    on_side_p1 = m.prefetched_p1;  // the unit prefetched at the start of backward, not yet copied out
  }
  // FSDP1 reduce-scatters each unit's gradient and casts its shard to the parameter dtype on the post-backward
  // stream (torch/distributed/fsdp/_runtime_utils.py `_reduce_grad`): the sharded gradients of a full fine-tune
  // live in that stream's pool. Kept until the next forward, they are not there at the start of backward, but the
  // compute stream cannot use their blocks. FSDP2 likewise: `foreach_reduce` allocates each unit's reduce-scatter
  // output on the reduce-scatter stream and the sharded gradients are views of it, kept until `zero_grad`
  // (measured: one segment per unit on that stream, 35 holding 3.81 GiB for Llama-3.1-8B on 8 ranks,
  // tools/memory/reserved_segments.py).
  const double post_pool = (fsdp1 || fsdp2) ? m.sharded_grads : 0;
  // With gradient accumulation the earlier micro-steps' sharded gradients are these, in that pool, not the compute
  // stream's.
  const double accumulated_elsewhere = std::min(m.accumulated, post_pool);
  // The compute stream's pool: the replayed blocks (wrapping transients, activations, the loss) plus what is not
  // replayed at the start of backward (persistent state, buckets), or the other moments' allocations.
  const double loss_blocks = (m.logit_bytes < 4 ? 12.0 : 8.0) * m.logits;
  const auto rest_of = [&](double kept) {
    return std::max(0.0, m.p1 - on_side_p1 - m.gathered_compute - m.acts - loss_blocks - kept - accumulated_elsewhere);
  };
  // What the replay carves out of the first step's blocks for the optimizer state (FSDP2) is in `replayed`.
  double carved = 0;
  for (double t : m.opt_tensors)
    if (t > kSmallRequest) carved += CachingAllocatorModel::round_request(t);
  const bool second_step = fsdp1 && m.root_flat_grad > 0;
  const auto [replayed, kept] =
      replay_compute_pool(m, second_step ? std::function<double(double)>(rest_of) : std::function<double(double)>());
  const double rest_p1 = second_step ? 0.0 : std::max(0.0, rest_of(kept) - carved);
  // FSDP1 hands each unsharded gradient to the post-backward stream with record_stream: its block returns to the
  // compute pool only when that stream is done, so the next unit's gradient takes another block.
  const double pending = fsdp1 && m.root_flat_grad <= 0 ? m.unit_grad : 0;
  const double main_pool =
      std::max({rest_p1 + replayed, m.p2 - on_side_p2 - (m.p2_has_grads ? post_pool : accumulated_elsewhere) + pending,
                m.p3 - post_pool});
  // Fragmentation: what is allocated and freed within a step (activations, gathered units, gradients of every
  // size) is served best-fit from cached blocks that are split and merged again; the remainders too small for the
  // next request are reserved, not allocated. Persistent state (parameters, optimizer state) is allocated once and
  // does not fragment.
  const double transient = std::max(0.0, main_pool - m.steady);
  const double modelled = main_pool + side_pool + post_pool + kFragmentation * transient;
  // DeepSpeed ZeRO-1/2 flattens the 16-bit parameters into one buffer per group
  // (deepspeed/runtime/zero/stage_1_and_2.py, `flatten_dense_tensors_aligned`): the per-parameter blocks they were
  // placed in are freed and cached, and none of the step's large flat buffers fits in one, so reserved is at least
  // the allocated peak plus them (measured, run 14: reserved - peak = 0.86x to 1.19x the 16-bit model for the
  // full fine-tunes of Llama-3.2-1B/3B and Qwen2.5-1.5B; docs/memory.md, "DeepSpeed ZeRO").
  return std::max(modelled, std::max({m.p1, m.p2, m.p3}) + m.cached_flattened);
}

}  // namespace lint::memory
