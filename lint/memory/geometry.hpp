// Model geometry: the shape of a transformer (hidden size, layers, heads, MLP, vocabulary, experts) and the
// parameter counts that follow from it, per FSDP wrap unit. Known from a local `config.json` (read with the
// project's JSON reader) or from a built-in table of published configs, by hub id or torchtitan flavor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/parse/node.hpp"

namespace lint::memory {

/// How a decoder block is built: the parameter layout differs.
enum class Arch : std::uint8_t {
  Llama,     ///< RMSNorm, gated MLP, separate q/k/v/o (Llama, Mistral, Mixtral, Qwen2/2.5/3, Gemma, Phi-3/4, OLMo 2)
  Gpt2,      ///< LayerNorm with bias, fused c_attn, 4h MLP, learned positions, tied head
  Bert,      ///< encoder, LayerNorm with bias, learned positions and token types, pooler
  T5,        ///< encoder-decoder, RMS LayerNorm without bias, relative position bias, shared embedding
  DeepSeek,  ///< multi-head latent attention (MLA) and routed + shared experts after `first_k_dense` dense layers
};

struct Geometry {
  std::string id;      ///< the hub id or flavor it was found by (`meta-llama/Llama-3.1-8B`)
  std::string source;  ///< where the values come from (`published config.json of ...`, a local path)
  Arch arch = Arch::Llama;
  std::string model_type;           ///< config.json `model_type` (`llama`, `qwen2`)
  std::string decoder_layer_class;  ///< the transformers class of one block (`LlamaDecoderLayer`)
  std::int64_t hidden = 0;
  std::int64_t layers = 0;  ///< decoder layers (T5: per stack)
  std::int64_t heads = 0;
  std::int64_t kv_heads = 0;
  std::int64_t head_dim = 0;  ///< 0: hidden / heads
  std::int64_t intermediate = 0;
  std::int64_t vocab = 0;
  std::int64_t max_positions = 0;  ///< learned position table (GPT-2, BERT)
  bool tied = false;               ///< LM head shares the embedding
  bool qkv_bias = false;
  bool qk_norm = false;     ///< per-head q/k RMSNorm (Qwen3, Gemma 3); OLMo 2 norms the full q and k
  int norms_per_layer = 2;  ///< Gemma 2/3 and OLMo 2 have four / two post-norms
  /// Gemma 2 `final_logit_softcapping`: logits = cap * tanh(logits / cap), whose tanh output is saved for backward.
  bool logit_softcap = false;
  // Mixture of experts (0 when dense).
  std::int64_t experts = 0;
  std::int64_t experts_per_token = 0;
  std::int64_t moe_intermediate = 0;
  std::int64_t shared_expert_intermediate = 0;  ///< total width of always-on shared experts
  bool shared_expert_gate = false;              ///< Qwen2-MoE gates its shared expert
  std::int64_t first_dense_layers = 0;          ///< DeepSeek `first_k_dense_replace`
  // DeepSeek MLA.
  std::int64_t q_lora_rank = 0;
  std::int64_t kv_lora_rank = 0;
  std::int64_t qk_nope_head_dim = 0;
  std::int64_t qk_rope_head_dim = 0;
  std::int64_t v_head_dim = 0;
  double published_params = 0;  ///< the total the model card states, for tests (0 when none)

  [[nodiscard]] std::int64_t hd() const { return head_dim > 0 ? head_dim : (heads > 0 ? hidden / heads : 0); }
  [[nodiscard]] std::int64_t q_dim() const { return heads * hd(); }
  [[nodiscard]] std::int64_t kv_dim() const { return kv_heads * hd(); }
  /// Parameters of decoder layer `i` (MoE layers differ from dense ones).
  [[nodiscard]] std::int64_t layer_params(std::int64_t i) const;
  /// The largest decoder layer.
  [[nodiscard]] std::int64_t max_layer_params() const;
  /// Every decoder layer (both stacks for T5).
  [[nodiscard]] std::int64_t all_layer_params() const;
  /// Input embedding (with position / token-type tables).
  [[nodiscard]] std::int64_t embedding_params() const;
  /// The LM head when untied (0 when tied or absent).
  [[nodiscard]] std::int64_t head_params() const;
  /// What no decoder layer holds: embeddings, final norm(s), untied head, pooler. FSDP's root unit.
  [[nodiscard]] std::int64_t root_params() const;
  [[nodiscard]] std::int64_t total_params() const;
  /// Input and output widths of a linear module of a decoder layer by its transformers name
  /// (`q_proj`, `gate_proj`); nullopt for a name the block does not have.
  [[nodiscard]] std::optional<std::pair<std::int64_t, std::int64_t>> linear_shape(std::string_view name) const;
  /// The names of the block's linear modules (PEFT `all-linear` minus the head).
  [[nodiscard]] std::vector<std::string> linear_names() const;
  /// Activation width of the MLP per token (dense: intermediate; MoE: routed top-k plus shared).
  [[nodiscard]] std::int64_t mlp_active_width() const;
};

/// A built-in geometry by hub id (`meta-llama/Llama-3.1-8B`, case-insensitive, `-Instruct`/`-hf`/`-chat`
/// suffixes ignored) or by torchtitan `name/flavor` (`llama3/8B`). nullptr when unknown.
const Geometry* find_geometry(std::string_view id);

/// Every built-in geometry (for tests and docs).
const std::vector<Geometry>& builtin_geometries();

/// A geometry from a parsed `config.json` root mapping; nullopt (with `why`) when the architecture is not one the
/// estimator models or a required field is missing.
std::optional<Geometry> geometry_from_config(const parse::Node& root, std::string source, std::string& why);

}  // namespace lint::memory
