// The memory model (docs/memory.md): per-rank bytes of each tensor class, and which are alive at the three
// moments that can hold the peak:
//   P1, start of backward: sharded state + gathered units + every saved activation + the loss's fp32 logits;
//   P2, inside the decoder layers' backward: the same without the logits, plus the prefetched units, a recomputed
//       layer when checkpointing and the unit's unsharded gradient;
//   P3, optimizer step: sharded state + gradients + the optimizer's temporaries.
#include "lint/memory/estimate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <set>

#include "lint/memory/allocator.hpp"
#include "lint/memory/reserved.hpp"

namespace lint::memory {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr const char* kWorkspaces = "the forward and autograd threads' cuBLAS handles, 32 MiB each";
constexpr const char* kReduceBucket = "DeepSpeed reduce_bucket_size elements in the compute dtype";

bool is(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

/// LoRA trainable parameters and the per-token activation bytes its adapters add.
struct LoraCount {
  std::int64_t trainable = 0;
  bool qkv = false, o = false, gate_up = false, down = false;
  std::int64_t input_width_sum = 0;  ///< Σ input widths of the adapted modules of one layer
};

LoraCount count_lora(const Geometry& g, std::int64_t r, const std::vector<std::string>& targets_in) {
  std::vector<std::string> targets = targets_in;
  if (targets.size() == 1 && (targets[0] == "all-linear" || targets[0] == "all")) targets = g.linear_names();
  LoraCount c;
  const std::int64_t layers = g.arch == Arch::T5 ? 2 * g.layers : g.layers;
  std::set<std::string> seen;
  for (const std::string& t : targets) {
    if (!seen.insert(t).second) continue;
    const auto shape = g.linear_shape(t);
    if (!shape) continue;
    const bool mlp = is(t, {"gate_proj", "up_proj", "down_proj", "w1", "w2", "w3", "gate_up_proj", "c_fc"});
    // MoE: PEFT adapts every expert's copy of an MLP projection.
    const std::int64_t copies = mlp && g.experts > 0 ? g.experts + (g.shared_expert_intermediate > 0 ? 1 : 0) : 1;
    c.trainable += layers * copies * r * (shape->first + shape->second);
    c.input_width_sum += shape->first;
    if (is(t, {"q_proj", "k_proj", "v_proj", "qkv_proj", "c_attn", "query", "key", "value", "q", "k", "v"}))
      c.qkv = true;
    if (is(t, {"o_proj", "o"})) c.o = true;
    if (is(t, {"gate_proj", "up_proj", "w1", "w3", "gate_up_proj", "c_fc"})) c.gate_up = true;
    if (is(t, {"down_proj", "w2"})) c.down = true;
  }
  return c;
}

}  // namespace

Estimate estimate(const Inputs& in) {
  const Geometry& g = in.geometry;
  Estimate e;
  e.available = true;
  const double h = static_cast<double>(g.hidden);
  const double V = static_cast<double>(g.vocab);
  const double I = static_cast<double>(g.mlp_active_width());
  double qd = static_cast<double>(g.q_dim());
  double kvd = static_cast<double>(g.kv_dim());
  if (g.arch == Arch::DeepSeek) {
    qd = static_cast<double>(g.heads * (g.qk_nope_head_dim + g.qk_rope_head_dim));
    kvd = static_cast<double>(g.heads * g.v_head_dim);
  }
  const double L = static_cast<double>(g.arch == Arch::T5 ? 2 * g.layers : g.layers);
  const double tokens =
      static_cast<double>(std::max<std::int64_t>(1, in.seq_len) * std::max<std::int64_t>(1, in.micro_batch));
  const double P = static_cast<double>(g.total_params());
  const double root = static_cast<double>(g.root_params());
  const double umax = static_cast<double>(g.max_layer_params());
  e.params = g.total_params();

  const bool lora = in.training == Training::Lora || in.training == Training::QLora;
  const LoraCount lc = lora ? count_lora(g, in.lora_r, in.lora_targets) : LoraCount{};
  const double T = lora ? static_cast<double>(lc.trainable) : P;
  const double F = lora ? P : 0.0;  // frozen base (LoRA adds parameters beside it)
  e.trainable = static_cast<std::int64_t>(T);

  const bool fsdp = in.strategy == Strategy::Fsdp1 || in.strategy == Strategy::Fsdp2;
  const bool ds = in.strategy == Strategy::DeepSpeed;
  const double N = static_cast<double>(std::max<std::int64_t>(1, in.world_size));
  const bool hybrid =
      in.strategy == Strategy::Fsdp1 && is(in.sharding, {"HYBRID_SHARD", "_HYBRID_SHARD_ZERO2", "HYBRID_SHARD_ZERO2"});
  const double Ns = hybrid ? static_cast<double>(std::max<std::int64_t>(1, in.shard_group)) : N;
  const bool no_shard = (in.strategy == Strategy::Fsdp1 && in.sharding == "NO_SHARD") || N == 1;
  const bool keep_gathered = (in.strategy == Strategy::Fsdp1 &&
                              is(in.sharding, {"SHARD_GRAD_OP", "_HYBRID_SHARD_ZERO2", "HYBRID_SHARD_ZERO2"})) ||
                             (in.strategy == Strategy::Fsdp2 && in.sharding == "false");

  // Storage bytes. Compute dtype: 2 under mixed precision (bf16/fp16), else the stored dtype.
  const double b_c = in.mixed_precision ? 2.0 : static_cast<double>(in.base_bytes);
  double b_base = static_cast<double>(in.base_bytes);
  double b_t = 0;
  const bool mixed = lora && in.mixed_units && in.strategy == Strategy::Fsdp1;
  if (mixed) {
    b_t = static_cast<double>(in.base_bytes);  // one FlatParameter has one dtype: adapters as the base
  } else if (lora) {
    b_t = in.base_bytes == 2 ? 4.0 : static_cast<double>(in.base_bytes);  // PEFT keeps adapters fp32 on a 16-bit base
  } else {
    // accelerate upcasts trainable sharded parameters to fp32 under mixed precision (FSDP); DeepSpeed keeps an
    // fp32 master in the optimizer; DDP keeps the weights as loaded.
    b_t = (fsdp && !no_shard && in.mixed_precision) ? 4.0 : static_cast<double>(in.base_bytes);
  }
  double frozen_bytes = F * b_base;
  const bool qlora = in.training == Training::QLora;
  // QLoRA (bitsandbytes Linear4bit, bitsandbytes/nn/modules.py Params4bit): the decoder's linear weights are packed
  // two 4-bit values per byte (0.5 B per parameter, stored in `quant_storage`'s dtype, a parameter FSDP shards);
  // the quantization state (one absmax per 64-value block: 1 B per block with double quantization plus an fp32
  // constant per 256 blocks, else 4 B per block) is an attribute of the weight, not a parameter: every rank keeps all
  // of it. The embeddings, the head and the norms stay in the loaded dtype, fp32 after prepare_model_for_kbit_training.
  double quant_state = 0;
  const double b_root = qlora && in.kbit_prep ? 4.0 : b_base;
  if (qlora) {
    const double linear = P - root;
    frozen_bytes = linear * 0.5 + root * b_root;
    quant_state = linear * (in.double_quant ? 1.0 / 64 + 4.0 / (64 * 256) : 4.0 / 64);
    b_base = 0.5;
  }
  double opt_b = 2 * b_t;   // AdamW: exp_avg + exp_avg_sq in the parameter's dtype
  double opt_temp_b = b_t;  // foreach AdamW: one parameter-sized temporary during the step
  switch (in.optimizer) {
    case Optimizer::Adam8bit:
      opt_b = 2.0;
      opt_temp_b = 0;
      break;
    case Optimizer::Sgd:
      opt_b = b_t;
      opt_temp_b = b_t;
      break;  // momentum buffer
    case Optimizer::Adafactor:
      opt_b = 0.05 * b_t;
      opt_temp_b = b_t;
      break;
    case Optimizer::AdamW:
    case Optimizer::Unknown:
      break;
  }
  double grad_b = b_t;
  if (ds && !lora && in.mixed_precision) {
    // ZeRO mixed precision: 16-bit params and grads, fp32 master + Adam in the optimizer (K = 12).
    b_t = 2.0;
    grad_b = 2.0;
    opt_b = in.optimizer == Optimizer::Adam8bit ? 6.0 : 12.0;
    opt_temp_b = 4.0;
  }

  // Sharding of each class.
  double np = 1, ng = 1, no = 1;
  if (fsdp && !no_shard) np = ng = no = Ns;
  if (ds) {
    if (in.zero_stage >= 1) no = N;
    if (in.zero_stage >= 2) ng = N;
    if (in.zero_stage >= 3) np = N;
  }
  const bool off_p = in.offload_params;
  const bool off_o = in.offload_optimizer || (fsdp && in.offload_params);

  const double params_res = off_p ? quant_state : (frozen_bytes + T * b_t) / np + quant_state;
  const double opt_res = off_o ? 0 : T * opt_b / no;
  // Mixed units: the whole flat gradient, frozen members included, is produced and kept sharded.
  const double grads_all = off_o ? 0 : (T * grad_b + (mixed ? F * b_base : 0)) / ng;
  const double ddp_bucket = (in.strategy == Strategy::Ddp && N > 1) ? T * grad_b : 0;
  const double tied_state = 0;
  // FSDP1 keeps the sharded gradients of the last step until the next forward (use_orig_params).
  const double retained =
      (in.strategy == Strategy::Fsdp1 && !no_shard && (!lora || mixed) && in.use_orig_params) ? grads_all : 0;
  // cuBLAS workspaces: the forward thread's and the autograd engine thread's cuBLAS handles each keep one (32 MiB on
  // Hopper, aten/src/ATen/cuda/CublasHandlePool.cpp), allocated through the caching allocator at their first matmul
  // and kept for the process (measured: a configuration in a fresh process holds 59 to 68 MiB more at rest than the
  // same configuration measured after another one in the same process, run 9 against run 1).
  const double cublas_workspaces = 2.0 * 32.0 * 1024.0 * 1024.0;
  // DeepSpeed ZeRO with mixed precision (measured, run 14: DeepSpeed 0.14.5, bf16, 8 ranks on the fake process
  // group). ZeRO-3 keeps its 16-bit gradient partition and its reduce bucket (`reduce_bucket_size` elements in the
  // compute dtype) allocated between steps (deepspeed/runtime/zero/stage3.py: the flat gradient partition buffer and
  // the ipg bucket are created once); ZeRO-1/2 allocate the reduce bucket within backward only. At the optimizer step
  // the partition's gradients are converted to fp32 (4 B per trainable parameter / N) beside AdamW's foreach
  // temporary (4 B / N); ZeRO-1/2 still hold the 16-bit partition (2 B / N) then.
  const bool ds_mp = ds && !lora && in.mixed_precision && in.zero_stage >= 1 && !in.offload_optimizer;
  const double ds_bucket = ds && in.zero_stage >= 2 ? std::max(0.0, in.ds_reduce_bucket) * b_c : 0;
  const double ds_grad_partition = ds_mp && in.zero_stage >= 3 ? T * grad_b / N : 0;
  const double ds_persistent = ds_grad_partition + (in.zero_stage >= 3 ? ds_bucket : 0);
  e.steady = params_res + opt_res + ddp_bucket + tied_state + retained + cublas_workspaces + ds_persistent;

  // Gathered (unsharded) parameters in the compute dtype.
  double gathered_p1 = 0, gathered_p2 = 0;
  // QLoRA gathers the packed 4-bit storage (dequantised per matmul), not 16-bit weights.
  const double qlora_scale = qlora ? 0.5 / b_c : 1.0;
  const double all_gathered = (P - root) * b_c * qlora_scale + root * b_c + (lora ? T * b_c : 0);
  const double units_in_flight = in.backward_prefetch == "BACKWARD_PRE" ? 2.0 : 1.0;
  // Backward prefetch at the start of backward: the root's pre-backward hook runs on the loss's gradient, before the
  // loss's own backward, and prefetches the unit that finished forward just before the root (the last decoder
  // layer), all-gathered while the loss's fp32 blocks are allocated. FSDP1 with BACKWARD_PRE
  // (torch/distributed/fsdp/_runtime_utils.py `_pre_backward_hook` -> `_prefetch_handle`, target chosen by
  // `_exec_order_utils.get_handle_to_backward_prefetch` from the post-forward order); FSDP2 always
  // (`FSDPParamGroup._backward_prefetch`) when the head is in the root (tied). An untied head wrapped as its own unit
  // is the one the root prefetches (gathered_p1 below); the last layer follows at the head's pre-backward, once the
  // loss's fp32 blocks are freed.
  double prefetched_p1 = 0;
  if (fsdp && !no_shard) {
    if (keep_gathered) {
      gathered_p1 = gathered_p2 = all_gathered;
    } else if (in.strategy == Strategy::Fsdp1) {
      if (in.backward_prefetch == "BACKWARD_PRE") prefetched_p1 = umax * b_c * qlora_scale;
      gathered_p1 = root * b_c + prefetched_p1;  // the root unit is not resharded after forward
      gathered_p2 = root * b_c + units_in_flight * umax * b_c * qlora_scale;
    } else {
      // FSDP2, reshard_after_forward=True on every unit: the head is gathered again for the loss's backward.
      if (g.tied) prefetched_p1 = umax * b_c * qlora_scale;
      gathered_p1 = V * h * b_c + prefetched_p1;
      gathered_p2 = 2 * umax * b_c * qlora_scale;
      // reshard_after_forward=k (int): after forward each unit keeps a 1/k shard (a clone) for the backward
      // all-gather inside k ranks.
      if (in.strategy == Strategy::Fsdp2 && !in.sharding.empty() &&
          std::isdigit(static_cast<unsigned char>(in.sharding[0]))) {
        const double k = std::max(1.0, std::atof(in.sharding.c_str()));
        const double kept = (all_gathered - root * b_c) / k;
        gathered_p1 += kept;
        gathered_p2 += kept;
      }
    }
  } else if (ds && in.zero_stage >= 3 && N > 1) {
    // ZeRO-3 keeps gathered parameters live up to `stage3_max_live_parameters` when their reuse distance is within
    // `stage3_max_reuse_distance` (both 1e9 by default and in the HF examples): at the end of forward that many
    // parameters plus the head are still gathered (measured, runs 14 and 15, with and without `zero.Init`:
    // Llama-3.2-3B 2.4 GiB, Llama-3.1-8B 2.8 GiB, Qwen2.5-0.5B its whole 0.9 GiB; LoRA with reentrant checkpointing
    // 2.2 GiB for the 7B, and without checkpointing when built inside `zero.Init`, run 15). A frozen base without
    // checkpointing materialised whole before `deepspeed.initialize` partitions it stays gathered whole (run 14:
    // 12.4 GiB for the 7B LoRA): the HF Trainer builds it inside `zero.Init` (HF005 reports the other order).
    const double window = std::max(0.0, in.ds_max_live);
    const double head_p = V * h;  // the head's matrix, tied to the embedding or not: gathered for the loss
    const double live = lora && !in.checkpointing && !in.ds_zero_init ? P : std::min(P, window + head_p);
    gathered_p1 = live * b_c * qlora_scale;
    gathered_p2 = std::max(2 * umax * b_c, gathered_p1);
  } else if (off_p) {
    gathered_p1 = gathered_p2 = all_gathered;
  }
  // Unsharded gradient of the unit in backward before its reduce-scatter (full fine-tune).
  const double unit_grad = (fsdp && !no_shard && (!lora || mixed)) ? umax * b_c : 0;
  // FSDP1's root unit (embeddings, head) reduces its gradient only after the whole backward: its unsharded
  // gradient stays allocated while the decoder layers run backward.
  const double root_grad = (in.strategy == Strategy::Fsdp1 && !no_shard && !lora) ? root * b_c : 0;

  // Saved activations per token per layer (HF Llama-style block, SDPA, no dropout): RMSNorm fp32 inputs 8h,
  // normed input 2h, q/k/v after RoPE and the attention output 4qd + 4kvd, the gated MLP's three I-wide tensors.
  double per_tok = 10 * h + 4 * qd + 4 * kvd + 6 * I;
  if (!lora || mixed) {
    per_tok += 6 * h + 2 * I;  // inputs of trainable (or, in mixed units, grad-requiring frozen) weights
  } else {
    if (lc.gate_up) per_tok += 2 * h;
    if (lc.down) per_tok += 2 * I;
    // fp32 adapters computed under autocast (DDP, or FSDP1 with use_orig_params exposing the fp32 weight):
    // each adapted module keeps its own 16-bit copy of its input.
    const bool fp32_adapter_compute =
        b_t == 4.0 && (!fsdp || no_shard || (in.strategy == Strategy::Fsdp1 && in.use_orig_params));
    if (fp32_adapter_compute) {
      double copies = 2.0 * static_cast<double>(lc.input_width_sum);
      if (lc.qkv) copies -= 2 * h;
      if (lc.gate_up) copies -= 2 * h;
      if (lc.down) copies -= 2 * I;
      per_tok += std::max(0.0, copies);
    }
  }
  const bool trains_weights = !lora || mixed;
  // Norms beyond the two pre-norms (Gemma 2/3: post-attention and post-feedforward norms) compute in fp32: each
  // saves its fp32 input (4h) and, when its weight trains, its fp32 normalized output (Gemma multiplies by
  // 1 + weight in fp32: 4h more).
  if (g.arch == Arch::Llama && g.norms_per_layer > 2)
    per_tok += static_cast<double>(g.norms_per_layer - 2) * (trains_weights ? 8 : 4) * h;
  // Per-head (Qwen3, Gemma 3) or full-width (OLMo 2) q/k RMSNorm: the fp32 copy of q and k (4 B each) and, when the
  // norm's weight trains, the bf16 normalized values (2 B).
  if (g.qk_norm) per_tok += (trains_weights ? 6.0 : 4.0) * (qd + kvd);
  if (g.arch == Arch::Gpt2) {
    // GPT-2 block (transformers GPT2Block, published dropout 0.1, activation gelu_new): LayerNorm runs in fp32 under
    // autocast (fp32 input copy 4h each, two); q/k/v 6h and the SDPA output 2h; two dropout masks (1 B each, h wide).
    // NewGELU is composed of elementwise ops and `pow` is on autocast's fp32 list: pow's fp32 copy of its input (4I),
    // tanh's fp32 output (4I), 1 + tanh (4I) and 0.5·x (2I) are saved: 14I. Trained weights save their bf16 inputs
    // (c_attn 2h, attention c_proj 2h, c_fc 2h, MLP c_proj 2I); LoRA adapters their inputs (2 B per input width).
    per_tok = 18 * h + 14 * I;
    per_tok += trains_weights ? 6 * h + 2 * I : 2.0 * static_cast<double>(lc.input_width_sum);
  }
  // LoRA dropout: each adapted module keeps its dropped-out input (compute dtype) and the mask (1 byte).
  if (lora && in.lora_dropout > 0) per_tok += 3.0 * static_cast<double>(lc.input_width_sum);
  // prepare_model_for_kbit_training makes the embedding, the norms and so the residual stream fp32: each norm saves
  // its fp32 input (8h), Linear4bit returns its input's dtype, so q/k/v and the MLP's I-wide tensors are fp32 until
  // SDPA casts q/k/v to bf16 under autocast (4qd + 4kvd saved); the MLP saves gate, SiLU(gate) and up in fp32 (12I);
  // bitsandbytes' MatMul4Bit saves no input (only the weight); each LoRA adapter saves its bf16 input (2 B per input
  // width).
  double stream_b = 2;
  if (qlora && in.kbit_prep) {
    per_tok = 8 * h + 4 * qd + 4 * kvd + 12 * I + 2.0 * static_cast<double>(lc.input_width_sum);
    if (in.lora_dropout > 0) per_tok += 3.0 * static_cast<double>(lc.input_width_sum);
    stream_b = 4;
  }
  const double layer_act = per_tok * tokens;
  // The final norm runs outside the decoder layers (and outside checkpointing): it saves its fp32 input (HF's
  // RMSNorm computes in fp32, and autocast runs LayerNorm in fp32), and its output, the head's input, when the head
  // trains (measured: 24 MiB at modeling_phi3.py's RMSNorm alive at the backward peak of v7_phi3_lora_qkvo_fs_ac1,
  // T x h x 4 B).
  const double final_norm = (4.0 + (trains_weights ? 2.0 : 0.0)) * h * tokens;
  const double acts_saved = (in.checkpointing ? L * stream_b * h * tokens : L * layer_act) + final_norm;
  const double recompute = in.checkpointing ? layer_act : 0;
  // bf16 logits upcast to fp32, log-softmax and its gradients; Gemma 2's final logit soft-capping keeps tanh's bf16
  // output (2 B per logit) for its backward.
  const double logits_bwd = (g.logit_softcap ? 14.0 : 12.0) * tokens * V;

  // QLoRA dequantizes a linear weight to bf16 for each matmul (forward and backward): one at a time. With an fp32
  // head (prepare_model_for_kbit_training) autocast's bf16 copy of the head weight is kept for the head's backward.
  double dequant = 0;
  if (qlora) {
    for (const std::string& n : g.linear_names())
      if (const auto s = g.linear_shape(n))
        dequant = std::max(dequant, 2.0 * static_cast<double>(s->first * s->second));
  }
  const double head_copy = qlora && in.kbit_prep ? V * h * b_c : 0;
  // Gradient accumulation: from the second micro-step on, the gradients of the earlier ones (DDP's full gradients
  // under no_sync, FSDP's sharded ones) stay allocated through forward and backward.
  // ZeRO-3 accumulates into its persistent 16-bit gradient partition: nothing more.
  const double accumulated = in.grad_accum > 1 && ds_grad_partition <= 0 ? grads_all : 0;
  const double p1 = e.steady - retained + accumulated + gathered_p1 + acts_saved + logits_bwd + head_copy;
  // Backward through the layers: early, every saved activation and no gradient yet; late, the gradients of every
  // unit (sharded, or full for DDP) and the activations freed. The peak of the two.
  const double p2_early =
      e.steady - retained + accumulated + gathered_p2 + acts_saved + recompute + unit_grad + root_grad + dequant;
  // Late in backward, units kept gathered since forward (SHARD_GRAD_OP) have been resharded one by one.
  const double gathered_late = keep_gathered ? root * b_c + units_in_flight * umax * b_c * qlora_scale : gathered_p2;
  const double p2_late = e.steady - retained + gathered_late + grads_all + recompute + unit_grad + root_grad +
                         (in.zero_stage < 3 ? ds_bucket : 0);
  const double p2 = std::max(p2_early, p2_late);
  // The step's gradients: ZeRO mixed precision holds the partition in fp32 (and, ZeRO-1/2, in 16 bits too).
  const double step_grads = ds_mp ? T * 4.0 / no + (in.zero_stage < 3 ? T * grad_b / no : 0) : grads_all;
  const double p3 = e.steady - retained + step_grads + (off_o ? 0 : T * opt_temp_b / no);

  const double act_term_p2 = (p2_early >= p2_late ? acts_saved : 0) + recompute;
  if (p3 >= p1 && p3 >= p2) {
    e.peak = p3;
    e.peak_phase = "optimizer step";
    e.breakdown = {
        {"parameters", params_res, "sharded across " + std::to_string(static_cast<long long>(np)) + " rank(s)"},
        {"optimizer_state", opt_res + tied_state, ""},
        {"gradients", step_grads + ds_grad_partition, ds_mp ? "the partition's, 16-bit and fp32" : ""},
        {"optimizer_temporaries", off_o ? 0 : T * opt_temp_b / no, "foreach step buffers"},
        {"ddp_buckets", ddp_bucket, ""},
        {"reduce_bucket", in.zero_stage >= 3 ? ds_bucket : 0, kReduceBucket},
        {"cublas_workspaces", cublas_workspaces, kWorkspaces}};
  } else if (p1 >= p2) {
    e.peak = p1;
    e.peak_phase = "start of backward (loss)";
    e.breakdown = {
        {"parameters", params_res, ""},
        {"optimizer_state", opt_res + tied_state, ""},
        {"ddp_buckets", ddp_bucket, ""},
        {"cublas_workspaces", cublas_workspaces, kWorkspaces},
        {"reduce_bucket", in.zero_stage >= 3 ? ds_bucket : 0, kReduceBucket},
        {"gradients", accumulated + ds_grad_partition,
         ds_grad_partition > 0 ? "the 16-bit partition" : "earlier micro-steps' (gradient accumulation)"},
        {"gathered_units", gathered_p1, ""},
        {"activations", acts_saved,
         in.checkpointing ? "layer inputs (checkpointing), the final norm's" : "every layer, the final norm's"},
        {"logits", logits_bwd + head_copy,
         std::string("fp32 logits, log-softmax and its gradient") +
             (g.logit_softcap ? "; soft-capping's tanh output" : "") +
             (head_copy > 0 ? "; bf16 copy of the fp32 head" : "")}};
  } else {
    e.peak = p2;
    e.peak_phase = p2_early >= p2_late ? "backward through the decoder layers" : "end of backward";
    e.breakdown = {
        {"parameters", params_res, ""},
        {"optimizer_state", opt_res + tied_state, ""},
        {"ddp_buckets", ddp_bucket, ""},
        {"cublas_workspaces", cublas_workspaces, kWorkspaces},
        {"gathered_units", p2_early >= p2_late ? gathered_p2 + dequant : gathered_late,
         p2_early >= p2_late && dequant > 0 ? "includes one dequantized 4-bit weight" : ""},
        {"activations", act_term_p2, in.checkpointing ? "layer inputs + one recomputed layer" : "every layer"},
        {"reduce_bucket", in.zero_stage >= 3 || p2_early < p2_late ? ds_bucket : 0, kReduceBucket},
        {"gradients", (p2_early >= p2_late ? accumulated : grads_all) + ds_grad_partition,
         p2_early >= p2_late ? "earlier micro-steps' (gradient accumulation)" : "every unit's, at the end of backward"},
        {"unit_gradients", unit_grad + root_grad, "unsharded gradients before reduce-scatter"}};
  }
  e.breakdown.erase(std::remove_if(e.breakdown.begin(), e.breakdown.end(), [](const Term& t) { return t.bytes <= 0; }),
                    e.breakdown.end());
  Moments mo;
  mo.p1 = p1;
  mo.p2 = std::max(p2_early, p2_late);
  mo.p3 = p3;
  if (in.strategy == Strategy::Fsdp1 && !no_shard && (!lora || mixed)) mo.sharded_grads = grads_all;
  if (in.strategy == Strategy::Fsdp2 && N > 1 && !lora && !off_o) mo.sharded_grads = grads_all;
  mo.p2_has_grads = p2_late > p2_early;
  if (ds && !lora && in.mixed_precision && in.zero_stage >= 1 && in.zero_stage < 3 && N > 1)
    mo.cached_flattened = T * b_c;
  mo.accumulated = accumulated;
  mo.unit_grad = unit_grad;
  if (in.strategy == Strategy::Fsdp1 && !no_shard && !lora && b_t != b_c)
    mo.mp_shards =
        CachingAllocatorModel::segment_size(root * b_c / np) + 2 * CachingAllocatorModel::segment_size(umax * b_c / np);
  mo.gathered_p1 = gathered_p1;
  mo.gathered_p2 = p2_early >= p2_late ? gathered_p2 : gathered_late;
  mo.logits = tokens * V;
  mo.logit_bytes = b_c;
  mo.unit = umax * b_c * qlora_scale;
  mo.root = root * b_c;
  mo.all_gathered = all_gathered;
  mo.steady = e.steady;
  mo.acts = acts_saved;
  // The largest tensor a decoder layer frees within its forward: the RMSNorm's fp32 square of its input (T x h x 4 B;
  // HF's RMSNorm computes in fp32), and the MLP's T x I intermediate (the down projection's input) under
  // checkpointing or when the down projection is frozen and not adapted (no weight gradient needs its input).
  if (g.arch != Arch::Gpt2) mo.forward_temporary = tokens * h * 4.0;
  if (in.checkpointing || (lora && !mixed && !lc.down))
    mo.forward_temporary = std::max(mo.forward_temporary, tokens * I * stream_b);
  {
    // Storage dtype of the frozen base (LoRA, PEFT's units) or of the trainable parameters (full fine-tune).
    const double store = lora ? b_base : b_t;
    const double store_root = lora ? b_root : b_t;
    std::vector<double> layer_params, root_params;
    std::set<std::string> seen;
    double listed = 0;
    for (const std::string& n : g.linear_names()) {
      const auto shape = g.linear_shape(n);
      if (!shape || !seen.insert(n).second) continue;
      const double copies = g.experts > 0 && is(n, {"gate_proj", "up_proj", "down_proj", "w1", "w2", "w3"})
                                ? static_cast<double>(g.experts)
                                : 1.0;
      const double numel = static_cast<double>(shape->first * shape->second);
      layer_params.push_back(numel * copies * store);
      listed += numel * copies;
    }
    if (umax > listed) layer_params.push_back((umax - listed) * (qlora ? b_root : store));  // norms, biases
    const double emb = static_cast<double>(g.embedding_params());
    const double head = static_cast<double>(g.head_params());
    root_params = {emb * store_root};
    if (head > 0) root_params.push_back(head * store_root);
    if (root > emb + head) root_params.push_back((root - emb - head) * store_root);
    const bool fsdp2_sharded = in.strategy == Strategy::Fsdp2 && N > 1;
    // FSDP2 full fine-tune: the optimizer's state tensors, per parameter shard in parameter order (embedding, decoder
    // layers, the rest of the root), `states` tensors of opt_b / states bytes per trainable parameter each.
    const int states = in.optimizer == Optimizer::Sgd ? 1 : in.optimizer == Optimizer::Adafactor ? 0 : 2;
    if (fsdp2_sharded && !lora && !off_o && states > 0) {
      const double per = opt_b / states / b_t / np;  // bytes of one state tensor per byte of stored parameter
      auto add = [&](double stored) {
        for (int i = 0; i < states; ++i) mo.opt_tensors.push_back(stored * per);
      };
      add(root_params.front());
      for (int l = 0; l < static_cast<int>(std::min<double>(L, 512)); ++l)
        for (double b : layer_params) add(b);
      for (std::size_t i = 1; i < root_params.size(); ++i) add(root_params[i]);
    }
    if (fsdp2_sharded && !lora && !off_o && states > 0) {
      // The forward unit by unit (reserved.cpp): a layer's gathered parameters in the compute dtype, and the
      // temporaries its forward frees: the two norms' fp32 input and square (T x h x 4 B each), and under
      // checkpointing the MLP's gate and up projections (one fused T x 2I tensor for Phi-3's gate_up_proj), the
      // activation and the product (T x I each, compute dtype).
      for (double b : layer_params) mo.layer_gathered.push_back(b / b_t * b_c);
      const double norm = tokens * h * 4.0, mlp = tokens * I * b_c;
      mo.layer_temps = {norm, norm};
      if (in.checkpointing) {
        if (g.linear_shape("gate_up_proj"))
          mo.layer_temps.push_back(2 * mlp);
        else
          mo.layer_temps.insert(mo.layer_temps.end(), {mlp, mlp});
        mo.layer_temps.insert(mo.layer_temps.end(), {mlp, mlp});
      }
      mo.layer_reshard = in.sharding != "false";
      mo.layers = static_cast<int>(std::min<double>(L, 512));
    }
    if ((in.strategy == Strategy::Fsdp1 && !no_shard) || (fsdp2_sharded && qlora)) {
      mo.layer_params = layer_params;
      mo.root_params = root_params;
      mo.wrap = in.strategy == Strategy::Fsdp1 ? Wrap::Fsdp1 : Wrap::Fsdp2;
      mo.shard_div = np;
      mo.layers = static_cast<int>(std::min<double>(L, 512));
      mo.offload = off_p;
      mo.resident = qlora;
    } else if (qlora && in.kbit_prep) {
      for (double b : root_params) mo.upcast_root.push_back(b / 2);  // 16-bit blocks, replaced by fp32
    }
  }
  if (in.strategy == Strategy::Fsdp2 && N > 1) {
    // FSDP2 copies a unit out of its all-gather buffer only when the unit's own hook waits for it: the prefetched
    // unit is still in the all-gather stream's buffer at the start of backward.
    mo.gathered_compute = gathered_p1 - prefetched_p1;
    mo.prefetched_p1 = prefetched_p1;
    if (!lora && !off_o) {
      // A full fine-tune's fp32 reduce-scatter inputs (MixedPrecisionPolicy reduce_dtype=float32, as
      // tools/memory/measure.py sets it; assumed for every FSDP2 launch), in backward order: the head's unit, a
      // decoder layer's (the largest), the embedding's. A tied embedding and head stay in the root unit, reduced last.
      const double emb = static_cast<double>(g.embedding_params());
      if (g.tied) {
        mo.reduce_inputs = {umax * 4.0, root * 4.0};
      } else {
        mo.reduce_inputs = {static_cast<double>(g.head_params()) * 4.0, umax * 4.0, emb * 4.0};
      }
    }
  }
  if (root_grad > 0) {
    const double emb = static_cast<double>(g.embedding_params());
    const double head = g.tied ? emb : static_cast<double>(g.head_params());
    mo.root_grad_parts = {head * b_c};
    if (!g.tied)
      mo.root_grad_parts.push_back(emb * b_c);
    else
      mo.root_grad_parts.push_back(emb * b_c);  // the embedding's use of the shared weight
    mo.root_flat_grad = root_grad;
    if (g.tied) mo.tied_grad_sum = emb * b_c;
  }
  e.reserved = reserved_estimate(in, mo);
  const double overhead = e.reserved - e.peak;
  e.breakdown.push_back({"allocator_overhead", overhead, "reserved, not allocated"});
  e.peak_low = e.peak_high = e.peak;
  return e;
}

std::optional<Inputs> central_inputs(const TrainingShape& s, std::vector<std::string>* assumptions,
                                     std::vector<std::string>* unknowns) {
  if (!s.geometry) return std::nullopt;
  auto note = [&](std::string a) {
    if (assumptions) assumptions->push_back(std::move(a));
  };
  auto unknown = [&](std::string u) {
    if (unknowns) unknowns->push_back(std::move(u));
  };
  Inputs in;
  in.geometry = *s.geometry;
  note("model geometry: " + s.geometry->source);
  in.training = s.training.value.value_or(Training::Full);
  if (!s.training.known()) {
    note("training: full fine-tune assumed (no LoRA/QLoRA configuration read)");
  }
  in.lora_r = s.lora_r.value.value_or(8);
  if (s.lora_targets.known() && !s.lora_targets.value->empty())
    in.lora_targets = *s.lora_targets.value;
  else if (in.training != Training::Full)
    note("LoRA targets: q_proj, v_proj assumed (PEFT's default for Llama-style models)");
  in.base_bytes = s.base_bytes.value.value_or(2);
  if (!s.base_bytes.known()) note("weights loaded in bf16 (2 bytes) assumed");
  const std::string mp = s.mixed_precision.value.value_or("bf16");
  in.mixed_precision = mp != "no";
  if (!s.mixed_precision.known()) note("bf16 mixed precision assumed");
  in.optimizer = s.optimizer.value.value_or(Optimizer::AdamW);
  if (!s.optimizer.known() || in.optimizer == Optimizer::Unknown) {
    in.optimizer = Optimizer::AdamW;
    note("AdamW (foreach) assumed");
  }
  in.seq_len = s.seq_len.value.value_or(2048);
  if (!s.seq_len.known()) {
    unknown("sequence length (512 to 4096; 2048 assumed)");
  }
  in.micro_batch = s.micro_batch.value.value_or(1);
  if (!s.micro_batch.known()) {
    unknown("micro-batch (1 to 8; 1 assumed)");
  }
  in.grad_accum = std::max<std::int64_t>(1, s.grad_accum.value.value_or(1));
  in.checkpointing = s.checkpointing.value.value_or(false);
  if (!s.checkpointing.known()) unknown("activation checkpointing (on or off; off assumed)");
  in.world_size = s.world_size.value.value_or(8);
  if (!s.world_size.known()) unknown("world size (2 to 64; 8 assumed)");
  in.shard_group = s.gpus_per_node.value.value_or(std::min<std::int64_t>(8, in.world_size));
  in.strategy = s.strategy == Strategy::Unknown ? (in.world_size > 1 ? Strategy::Ddp : Strategy::Single) : s.strategy;
  if (s.strategy == Strategy::Unknown) note("no sharding configuration read: DDP assumed");
  in.sharding = s.sharding.empty() ? (in.strategy == Strategy::Fsdp2 ? "true" : "FULL_SHARD") : s.sharding;
  in.zero_stage = static_cast<int>(s.zero_stage.value.value_or(0));
  // DeepSpeed's defaults (deepspeed/runtime/zero/config.py: reduce_bucket_size 5e8, stage3_max_live_parameters 1e9)
  // unless the JSON sets a number; "auto" is hidden_size^2 as the HF Trainer and accelerate fill it.
  const double hidden = static_cast<double>(in.geometry.hidden);
  in.ds_reduce_bucket = s.ds_reduce_bucket.value_or(s.ds_reduce_bucket_auto ? hidden * hidden : 5e8);
  in.ds_max_live = s.ds_max_live.value_or(1e9);
  if (in.strategy == Strategy::DeepSpeed && in.zero_stage >= 3 && in.training == Training::Full &&
      !in.offload_optimizer)
    note(
        "DeepSpeed ZeRO-3 full fine-tune: peak reserved not validated (measured -31% to +27% from this estimate, "
        "docs/memory.md)");
  in.offload_params = s.offload_params;
  in.offload_optimizer = s.offload_optimizer;
  in.use_orig_params = s.use_orig_params.value_or(true);
  // accelerate and the Trainer default FSDP1's backward prefetch to none; torch's own default is BACKWARD_PRE.
  in.backward_prefetch = s.backward_prefetch.empty() ? "BACKWARD_PRE" : s.backward_prefetch;
  if (in.strategy == Strategy::Fsdp1 && s.backward_prefetch.empty())
    note("FSDP1 backward prefetch: BACKWARD_PRE assumed");
  in.lora_dropout = s.lora_dropout.value.value_or(0.0);
  if (in.training == Training::QLora) {
    // TRL's SFTTrainer and axolotl call prepare_model_for_kbit_training for a 4-bit model unless it is sharded.
    const bool sharded = in.strategy == Strategy::Fsdp1 || in.strategy == Strategy::Fsdp2 ||
                         (in.strategy == Strategy::DeepSpeed && in.zero_stage >= 3);
    in.kbit_prep = s.kbit_prep.value.value_or(!sharded);
    if (!s.kbit_prep.known())
      note(std::string("QLoRA: prepare_model_for_kbit_training ") +
           (sharded ? "not run (sharded model) assumed" : "run (non-4-bit parameters upcast to fp32) assumed"));
    in.double_quant = s.double_quant.value.value_or(true);
    if (!s.double_quant.known()) note("QLoRA: bitsandbytes double quantization assumed");
    if (sharded)
      note(
          "QLoRA: the quantized model is on the GPU before it is wrapped (bitsandbytes quantizes on the GPU); its "
          "original blocks stay reserved");
  }
  if (in.training != Training::Full && in.strategy == Strategy::Fsdp1) {
    const bool layer_wrap = s.wrap_policy == "TRANSFORMER_BASED_WRAP" || s.wrap_policy == "SIZE_BASED_WRAP";
    if (!s.peft_wrap_policy && layer_wrap && in.use_orig_params) {
      if (in.base_bytes == 4) {
        in.mixed_units = true;
        note("FSDP1 LoRA with " + s.wrap_policy +
             " and use_orig_params: frozen and trainable parameters share units "
             "(their frozen weights get gradients)");
      } else {
        note("FSDP1 LoRA with " + s.wrap_policy +
             ": PEFT's fp32 adapters and the 16-bit base would share units, which "
             "FSDP refuses (one dtype per flat parameter); PEFT's separate units (fsdp_auto_wrap_policy) assumed");
      }
    } else {
      note("FSDP1 LoRA: frozen and trainable parameters in separate units assumed (PEFT's fsdp_auto_wrap_policy)");
    }
  }
  for (const std::string& n : s.notes) note(n);
  if (in.geometry.arch == Arch::Gpt2)
    note("GPT-2: its published dropout (0.1, masks kept for backward) and gelu_new activation assumed");
  if (in.grad_accum > 1)
    note("gradient accumulation: the earlier micro-steps' gradients stay allocated through forward and backward");
  note("SDPA attention, no dropout, HF causal-LM loss (fp32 logits); CUDA context and NCCL buffers not included");
  return in;
}

Estimate estimate_launch(const TrainingShape& s, std::optional<std::string> override_sharding) {
  std::vector<std::string> assumptions, unknowns;
  auto in = central_inputs(s, &assumptions, &unknowns);
  if (!in) {
    Estimate e;
    e.unavailable = s.model_id.known() ? "model '" + *s.model_id.value +
                                             "' is not in the built-in table and no local config.json was found"
                                       : "the launched model is not known";
    // Say why a local config.json was not read (outside the project boundary, not JSON, ...).
    for (const std::string& n : s.notes) {
      if (n.find("config.json") != std::string::npos) e.unavailable += " (" + n + ")";
    }
    return e;
  }
  if (override_sharding) in->sharding = *override_sharding;
  Estimate e = estimate(*in);
  e.assumptions = assumptions;
  e.unknowns = unknowns;
  // Range over what is not known.
  Inputs lo = *in, hi = *in;
  if (!s.seq_len.known()) lo.seq_len = 512, hi.seq_len = 4096;
  if (!s.micro_batch.known()) lo.micro_batch = 1, hi.micro_batch = 8;
  if (!s.checkpointing.known()) lo.checkpointing = true, hi.checkpointing = false;
  if (!s.world_size.known()) lo.world_size = 64, hi.world_size = 2, lo.shard_group = 8, hi.shard_group = 2;
  e.peak_low = std::min(e.peak, estimate(lo).peak);
  e.peak_high = std::max(e.peak, estimate(hi).peak);
  std::string label;
  switch (in->strategy) {
    case Strategy::Single:
      label = "single GPU";
      break;
    case Strategy::Ddp:
      label = "DDP";
      break;
    case Strategy::Fsdp1:
      label = "FSDP1 " + in->sharding;
      break;
    case Strategy::Fsdp2:
      label = "FSDP2 reshard_after_forward=" + in->sharding;
      break;
    case Strategy::DeepSpeed:
      label = "DeepSpeed ZeRO-" + std::to_string(in->zero_stage);
      break;
    case Strategy::Unknown:
      label = "unknown";
      break;
  }
  if (in->offload_params || in->offload_optimizer) label += " + CPU offload";
  label += ", " + std::to_string(in->world_size) + " GPU" + (in->world_size == 1 ? "" : "s");
  if (!s.world_size.known()) label += " (assumed)";
  e.label = label;
  return e;
}

}  // namespace lint::memory
