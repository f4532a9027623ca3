#include "lint/memory/geometry.hpp"

#include <algorithm>
#include <cctype>

namespace lint::memory {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

/// A dense decoder (Llama layout). Values are the published config.json fields of the model named by `id`.
Geometry dense(std::string id, std::string type, std::string cls, std::int64_t h, std::int64_t layers,
               std::int64_t heads, std::int64_t kv, std::int64_t head_dim, std::int64_t inter, std::int64_t vocab,
               bool tied, bool bias, double published) {
  Geometry g;
  g.id = std::move(id);
  g.source = "published config.json of " + g.id;
  g.model_type = std::move(type);
  g.decoder_layer_class = std::move(cls);
  g.hidden = h;
  g.layers = layers;
  g.heads = heads;
  g.kv_heads = kv;
  g.head_dim = head_dim;
  g.intermediate = inter;
  g.vocab = vocab;
  g.tied = tied;
  g.qkv_bias = bias;
  g.published_params = published;
  return g;
}

Geometry with(Geometry g, auto&& f) {
  f(g);
  return g;
}

std::vector<Geometry> make_table() {
  std::vector<Geometry> t;
  // Llama 2 / 3 / 3.1 / 3.2 / 3.3 (meta-llama/*/config.json).
  t.push_back(dense("meta-llama/Llama-2-7b", "llama", "LlamaDecoderLayer", 4096, 32, 32, 32, 0, 11008, 32000, false,
                    false, 6.74e9));
  t.push_back(dense("meta-llama/Llama-2-13b", "llama", "LlamaDecoderLayer", 5120, 40, 40, 40, 0, 13824, 32000, false,
                    false, 13.0e9));
  t.push_back(dense("meta-llama/Llama-2-70b", "llama", "LlamaDecoderLayer", 8192, 80, 64, 8, 0, 28672, 32000, false,
                    false, 69.0e9));
  t.push_back(dense("meta-llama/Meta-Llama-3-8B", "llama", "LlamaDecoderLayer", 4096, 32, 32, 8, 0, 14336, 128256,
                    false, false, 8.03e9));
  t.push_back(dense("meta-llama/Meta-Llama-3-70B", "llama", "LlamaDecoderLayer", 8192, 80, 64, 8, 0, 28672, 128256,
                    false, false, 70.6e9));
  t.push_back(dense("meta-llama/Llama-3.1-8B", "llama", "LlamaDecoderLayer", 4096, 32, 32, 8, 0, 14336, 128256, false,
                    false, 8.03e9));
  t.push_back(dense("meta-llama/Llama-3.1-70B", "llama", "LlamaDecoderLayer", 8192, 80, 64, 8, 0, 28672, 128256, false,
                    false, 70.6e9));
  t.push_back(dense("meta-llama/Llama-3.1-405B", "llama", "LlamaDecoderLayer", 16384, 126, 128, 8, 0, 53248, 128256,
                    false, false, 405.9e9));
  t.push_back(dense("meta-llama/Llama-3.2-1B", "llama", "LlamaDecoderLayer", 2048, 16, 32, 8, 64, 8192, 128256, true,
                    false, 1.24e9));
  t.push_back(dense("meta-llama/Llama-3.2-3B", "llama", "LlamaDecoderLayer", 3072, 28, 24, 8, 128, 8192, 128256, true,
                    false, 3.21e9));
  t.push_back(dense("meta-llama/Llama-3.3-70B", "llama", "LlamaDecoderLayer", 8192, 80, 64, 8, 0, 28672, 128256, false,
                    false, 70.6e9));
  // Mistral / Mixtral (mistralai/*/config.json).
  t.push_back(dense("mistralai/Mistral-7B-v0.1", "mistral", "MistralDecoderLayer", 4096, 32, 32, 8, 0, 14336, 32000,
                    false, false, 7.24e9));
  t.push_back(dense("mistralai/Mistral-7B-v0.3", "mistral", "MistralDecoderLayer", 4096, 32, 32, 8, 0, 14336, 32768,
                    false, false, 7.25e9));
  t.push_back(with(dense("mistralai/Mixtral-8x7B-v0.1", "mixtral", "MixtralDecoderLayer", 4096, 32, 32, 8, 0, 14336,
                         32000, false, false, 46.7e9),
                   [](Geometry& g) {
                     g.experts = 8;
                     g.experts_per_token = 2;
                     g.moe_intermediate = 14336;
                   }));
  t.push_back(with(dense("mistralai/Mixtral-8x22B-v0.1", "mixtral", "MixtralDecoderLayer", 6144, 56, 48, 8, 0, 16384,
                         32768, false, false, 140.6e9),
                   [](Geometry& g) {
                     g.experts = 8;
                     g.experts_per_token = 2;
                     g.moe_intermediate = 16384;
                   }));
  // Qwen2 / Qwen2.5 (Qwen/*/config.json): q/k/v biases.
  t.push_back(
      dense("Qwen/Qwen2-0.5B", "qwen2", "Qwen2DecoderLayer", 896, 24, 14, 2, 0, 4864, 151936, true, true, 0.49e9));
  t.push_back(
      dense("Qwen/Qwen2-7B", "qwen2", "Qwen2DecoderLayer", 3584, 28, 28, 4, 0, 18944, 152064, false, true, 7.62e9));
  t.push_back(
      dense("Qwen/Qwen2.5-0.5B", "qwen2", "Qwen2DecoderLayer", 896, 24, 14, 2, 0, 4864, 151936, true, true, 0.49e9));
  t.push_back(
      dense("Qwen/Qwen2.5-1.5B", "qwen2", "Qwen2DecoderLayer", 1536, 28, 12, 2, 0, 8960, 151936, true, true, 1.54e9));
  t.push_back(
      dense("Qwen/Qwen2.5-3B", "qwen2", "Qwen2DecoderLayer", 2048, 36, 16, 2, 0, 11008, 151936, true, true, 3.09e9));
  t.push_back(
      dense("Qwen/Qwen2.5-7B", "qwen2", "Qwen2DecoderLayer", 3584, 28, 28, 4, 0, 18944, 152064, false, true, 7.62e9));
  t.push_back(
      dense("Qwen/Qwen2.5-14B", "qwen2", "Qwen2DecoderLayer", 5120, 48, 40, 8, 0, 13824, 152064, false, true, 14.7e9));
  t.push_back(
      dense("Qwen/Qwen2.5-32B", "qwen2", "Qwen2DecoderLayer", 5120, 64, 40, 8, 0, 27648, 152064, false, true, 32.5e9));
  t.push_back(
      dense("Qwen/Qwen2.5-72B", "qwen2", "Qwen2DecoderLayer", 8192, 80, 64, 8, 0, 29568, 152064, false, true, 72.7e9));
  t.push_back(with(dense("Qwen/Qwen1.5-MoE-A2.7B", "qwen2_moe", "Qwen2MoeDecoderLayer", 2048, 24, 16, 16, 0, 5632,
                         151936, false, true, 14.3e9),
                   [](Geometry& g) {
                     g.experts = 60;
                     g.experts_per_token = 4;
                     g.moe_intermediate = 1408;
                     g.shared_expert_intermediate = 5632;
                     g.shared_expert_gate = true;
                   }));
  // Qwen3 (Qwen/*/config.json): head_dim 128, per-head q/k norms, no biases.
  auto qwen3 = [](Geometry g) {
    g.qk_norm = true;
    return g;
  };
  t.push_back(qwen3(
      dense("Qwen/Qwen3-0.6B", "qwen3", "Qwen3DecoderLayer", 1024, 28, 16, 8, 128, 3072, 151936, true, false, 0.6e9)));
  t.push_back(qwen3(
      dense("Qwen/Qwen3-1.7B", "qwen3", "Qwen3DecoderLayer", 2048, 28, 16, 8, 128, 6144, 151936, true, false, 1.7e9)));
  t.push_back(qwen3(
      dense("Qwen/Qwen3-4B", "qwen3", "Qwen3DecoderLayer", 2560, 36, 32, 8, 128, 9728, 151936, true, false, 4.0e9)));
  t.push_back(qwen3(
      dense("Qwen/Qwen3-8B", "qwen3", "Qwen3DecoderLayer", 4096, 36, 32, 8, 128, 12288, 151936, false, false, 8.2e9)));
  t.push_back(qwen3(dense("Qwen/Qwen3-14B", "qwen3", "Qwen3DecoderLayer", 5120, 40, 40, 8, 128, 17408, 151936, false,
                          false, 14.8e9)));
  t.push_back(with(qwen3(dense("Qwen/Qwen3-30B-A3B", "qwen3_moe", "Qwen3MoeDecoderLayer", 2048, 48, 32, 4, 128, 6144,
                               151936, false, false, 30.5e9)),
                   [](Geometry& g) {
                     g.experts = 128;
                     g.experts_per_token = 8;
                     g.moe_intermediate = 768;
                   }));
  // Gemma 2 / 3 (google/*/config.json): four norms per layer, tied head.
  auto gemma = [](Geometry g) {
    g.norms_per_layer = 4;
    g.logit_softcap = g.model_type == "gemma2";  // final_logit_softcapping 30.0 (Gemma 3: null)
    return g;
  };
  t.push_back(gemma(dense("google/gemma-2-2b", "gemma2", "Gemma2DecoderLayer", 2304, 26, 8, 4, 256, 9216, 256000, true,
                          false, 2.61e9)));
  t.push_back(gemma(dense("google/gemma-2-9b", "gemma2", "Gemma2DecoderLayer", 3584, 42, 16, 8, 256, 14336, 256000,
                          true, false, 9.24e9)));
  t.push_back(gemma(dense("google/gemma-2-27b", "gemma2", "Gemma2DecoderLayer", 4608, 46, 32, 16, 128, 36864, 256000,
                          true, false, 27.2e9)));
  t.push_back(with(gemma(dense("google/gemma-3-1b-pt", "gemma3_text", "Gemma3DecoderLayer", 1152, 26, 4, 1, 256, 6912,
                               262144, true, false, 1.0e9)),
                   [](Geometry& g) { g.qk_norm = true; }));
  // Phi-3 / Phi-4 (microsoft/*/config.json): fused qkv and gate_up, same counts.
  t.push_back(dense("microsoft/Phi-3-mini-4k-instruct", "phi3", "Phi3DecoderLayer", 3072, 32, 32, 32, 0, 8192, 32064,
                    false, false, 3.82e9));
  t.push_back(dense("microsoft/Phi-3-medium-4k-instruct", "phi3", "Phi3DecoderLayer", 5120, 40, 40, 10, 0, 17920, 32064,
                    false, false, 14.0e9));
  t.push_back(
      dense("microsoft/phi-4", "phi3", "Phi3DecoderLayer", 5120, 40, 40, 10, 0, 17920, 100352, false, false, 14.7e9));
  // OLMo 2 (allenai/*/config.json): q/k norms over the full projection, two post-norms.
  auto olmo2 = [](Geometry g) {
    g.qk_norm = true;
    return g;
  };
  t.push_back(olmo2(dense("allenai/OLMo-2-1124-7B", "olmo2", "Olmo2DecoderLayer", 4096, 32, 32, 32, 0, 11008, 100352,
                          false, false, 7.3e9)));
  t.push_back(olmo2(dense("allenai/OLMo-2-1124-13B", "olmo2", "Olmo2DecoderLayer", 5120, 40, 40, 40, 0, 13824, 100352,
                          false, false, 13.7e9)));
  // GPT-2 (openai-community/*/config.json).
  auto gpt2 = [](std::string id, std::int64_t h, std::int64_t l, std::int64_t heads, double pub) {
    Geometry g = dense(std::move(id), "gpt2", "GPT2Block", h, l, heads, heads, 0, 4 * h, 50257, true, true, pub);
    g.arch = Arch::Gpt2;
    g.max_positions = 1024;
    return g;
  };
  t.push_back(gpt2("openai-community/gpt2", 768, 12, 12, 124.4e6));
  t.push_back(gpt2("openai-community/gpt2-medium", 1024, 24, 16, 354.8e6));
  t.push_back(gpt2("openai-community/gpt2-large", 1280, 36, 20, 774.0e6));
  t.push_back(gpt2("openai-community/gpt2-xl", 1600, 48, 25, 1557.6e6));
  // BERT (google-bert/*/config.json).
  auto bert = [](std::string id, std::int64_t h, std::int64_t l, std::int64_t heads, double pub) {
    Geometry g = dense(std::move(id), "bert", "BertLayer", h, l, heads, heads, 0, 4 * h, 30522, true, true, pub);
    g.arch = Arch::Bert;
    g.max_positions = 512;
    return g;
  };
  t.push_back(bert("google-bert/bert-base-uncased", 768, 12, 12, 109.5e6));
  t.push_back(bert("google-bert/bert-large-uncased", 1024, 24, 16, 335.1e6));
  // T5 (google-t5/*/config.json): d_kv 64, ReLU MLP, shared tied embedding.
  auto t5 = [](std::string id, std::int64_t h, std::int64_t l, std::int64_t heads, std::int64_t ff, double pub) {
    Geometry g = dense(std::move(id), "t5", "T5Block", h, l, heads, heads, 64, ff, 32128, true, false, pub);
    g.arch = Arch::T5;
    return g;
  };
  t.push_back(t5("google-t5/t5-small", 512, 6, 8, 2048, 60.5e6));
  t.push_back(t5("google-t5/t5-base", 768, 12, 12, 3072, 222.9e6));
  t.push_back(t5("google-t5/t5-large", 1024, 24, 16, 4096, 737.7e6));
  // DeepSeek V2 / V3 (deepseek-ai/*/config.json): MLA attention, shared + routed experts.
  auto ds = [](std::string id, std::string type, std::string cls, std::int64_t h, std::int64_t l, std::int64_t heads,
               std::int64_t inter, std::int64_t vocab, double pub) {
    Geometry g =
        dense(std::move(id), std::move(type), std::move(cls), h, l, heads, heads, 0, inter, vocab, false, false, pub);
    g.arch = Arch::DeepSeek;
    return g;
  };
  t.push_back(with(
      ds("deepseek-ai/DeepSeek-V2-Lite", "deepseek_v2", "DeepseekV2DecoderLayer", 2048, 27, 16, 10944, 102400, 15.7e9),
      [](Geometry& g) {
        g.kv_lora_rank = 512;
        g.qk_nope_head_dim = 128;
        g.qk_rope_head_dim = 64;
        g.v_head_dim = 128;
        g.experts = 64;
        g.experts_per_token = 6;
        g.moe_intermediate = 1408;
        g.shared_expert_intermediate = 2 * 1408;
        g.first_dense_layers = 1;
      }));
  t.push_back(
      with(ds("deepseek-ai/DeepSeek-V3", "deepseek_v3", "DeepseekV3DecoderLayer", 7168, 61, 128, 18432, 129280, 671e9),
           [](Geometry& g) {
             g.q_lora_rank = 1536;
             g.kv_lora_rank = 512;
             g.qk_nope_head_dim = 128;
             g.qk_rope_head_dim = 64;
             g.v_head_dim = 128;
             g.experts = 256;
             g.experts_per_token = 8;
             g.moe_intermediate = 2048;
             g.shared_expert_intermediate = 2048;
             g.first_dense_layers = 3;
           }));
  // torchtitan llama3 flavors (torchtitan/models/llama3/__init__.py at v0.2.2): ffn width from
  // ffn_dim_multiplier / multiple_of, tokenizer vocabulary 128256.
  for (auto [flavor, from] :
       {std::pair{"llama3/8B", "meta-llama/Llama-3.1-8B"}, std::pair{"llama3/70B", "meta-llama/Llama-3.1-70B"},
        std::pair{"llama3/405B", "meta-llama/Llama-3.1-405B"}}) {
    for (const Geometry& g : t) {
      if (g.id != from) continue;
      Geometry f = g;
      f.id = flavor;
      f.source = std::string("torchtitan llama3 flavor ") + (flavor + 7) + " (same shape as " + from + ")";
      f.decoder_layer_class = "TransformerBlock";
      t.push_back(std::move(f));
      break;
    }
  }
  return t;
}

std::int64_t attention_params(const Geometry& g) {
  const std::int64_t h = g.hidden;
  if (g.arch == Arch::DeepSeek) {
    const std::int64_t qk = g.qk_nope_head_dim + g.qk_rope_head_dim;
    std::int64_t q =
        g.q_lora_rank > 0 ? h * g.q_lora_rank + g.q_lora_rank + g.q_lora_rank * g.heads * qk : h * g.heads * qk;
    return q + h * (g.kv_lora_rank + g.qk_rope_head_dim) + g.kv_lora_rank +
           g.kv_lora_rank * g.heads * (g.qk_nope_head_dim + g.v_head_dim) + g.heads * g.v_head_dim * h;
  }
  std::int64_t p = 2 * h * g.q_dim() + 2 * h * g.kv_dim();
  if (g.qkv_bias) p += g.q_dim() + 2 * g.kv_dim();
  if (g.qk_norm) p += g.model_type == "olmo2" ? g.q_dim() + g.kv_dim() : 2 * g.hd();
  return p;
}

}  // namespace

const std::vector<Geometry>& builtin_geometries() {
  static const std::vector<Geometry> table = make_table();
  return table;
}

std::int64_t Geometry::layer_params(std::int64_t i) const {
  const std::int64_t h = hidden;
  switch (arch) {
    case Arch::Gpt2:
      return 12 * h * h + 13 * h;
    case Arch::Bert:
      return 4 * (h * h + h) + 2 * h + h * intermediate + intermediate + intermediate * h + h + 2 * h;
    case Arch::T5: {
      const std::int64_t attn = 4 * h * heads * hd();
      const std::int64_t ff = 2 * h * intermediate;
      // Encoder blocks then decoder blocks (self + cross attention); block 0 of each stack holds the relative bias.
      const bool decoder = i >= layers;
      std::int64_t p = (decoder ? 2 * attn + 3 * h : attn + 2 * h) + ff;
      if (i == 0 || i == layers) p += 32 * heads;
      return p;
    }
    case Arch::Llama:
    case Arch::DeepSeek:
      break;
  }
  std::int64_t p = attention_params(*this) + norms_per_layer * h;
  const bool moe = experts > 0 && i >= first_dense_layers;
  if (!moe) return p + 3 * h * intermediate;
  p += experts * 3 * h * moe_intermediate + h * experts;
  if (shared_expert_intermediate > 0) p += 3 * h * shared_expert_intermediate + (shared_expert_gate ? h : 0);
  if (model_type == "deepseek_v3") p += experts;  // e_score_correction_bias
  return p;
}

std::int64_t Geometry::max_layer_params() const {
  std::int64_t m = 0;
  const std::int64_t n = arch == Arch::T5 ? 2 * layers : layers;
  // Layers of one kind repeat: the first dense, the first MoE and (T5) the first of each stack suffice.
  for (std::int64_t i : {std::int64_t{0}, first_dense_layers, std::int64_t{1}, layers, layers + 1}) {
    if (i < n) m = std::max(m, layer_params(i));
  }
  return m;
}

std::int64_t Geometry::all_layer_params() const {
  const std::int64_t n = arch == Arch::T5 ? 2 * layers : layers;
  if (arch == Arch::T5) {
    std::int64_t s = 0;
    for (std::int64_t i = 0; i < n; ++i) s += layer_params(i);
    return s;
  }
  const std::int64_t dense_n = std::min(first_dense_layers, n);
  return dense_n * layer_params(0) + (n - dense_n) * layer_params(dense_n < n ? dense_n : 0);
}

std::int64_t Geometry::embedding_params() const {
  std::int64_t p = vocab * hidden;
  if (arch == Arch::Gpt2) p += max_positions * hidden;
  if (arch == Arch::Bert) p += max_positions * hidden + 2 * hidden + 2 * hidden;
  return p;
}

std::int64_t Geometry::head_params() const {
  return tied ? 0 : vocab * hidden;
}

std::int64_t Geometry::root_params() const {
  std::int64_t p = embedding_params() + head_params();
  switch (arch) {
    case Arch::Gpt2:
      p += 2 * hidden;
      break;  // ln_f
    case Arch::Bert:
      p += hidden * hidden + hidden;
      break;  // pooler
    case Arch::T5:
      p += 2 * hidden;
      break;  // final norm of each stack
    case Arch::Llama:
    case Arch::DeepSeek:
      p += hidden;
      break;  // final norm
  }
  return p;
}

std::int64_t Geometry::total_params() const {
  return all_layer_params() + root_params();
}

std::optional<std::pair<std::int64_t, std::int64_t>> Geometry::linear_shape(std::string_view name) const {
  const std::int64_t h = hidden;
  using P = std::pair<std::int64_t, std::int64_t>;
  if (arch == Arch::Llama || arch == Arch::DeepSeek) {
    if (name == "q_proj") return P{h, q_dim()};
    if (name == "k_proj" || name == "v_proj") return P{h, kv_dim()};
    if (name == "o_proj") return P{q_dim(), h};
    if (name == "qkv_proj") return P{h, q_dim() + 2 * kv_dim()};
    const std::int64_t w = experts > 0 ? moe_intermediate : intermediate;
    if (name == "gate_proj" || name == "up_proj" || name == "w1" || name == "w3") return P{h, w};
    if (name == "down_proj" || name == "w2") return P{w, h};
    if (name == "gate_up_proj") return P{h, 2 * w};
    return std::nullopt;
  }
  if (arch == Arch::Gpt2) {
    if (name == "c_attn") return P{h, 3 * h};
    if (name == "c_proj") return P{h, h};
    if (name == "c_fc") return P{h, 4 * h};
    return std::nullopt;
  }
  if (arch == Arch::Bert && (name == "query" || name == "key" || name == "value")) return P{h, h};
  if (arch == Arch::T5 && (name == "q" || name == "k" || name == "v" || name == "o")) return P{h, heads * hd()};
  return std::nullopt;
}

std::vector<std::string> Geometry::linear_names() const {
  switch (arch) {
    case Arch::Gpt2:
      return {"c_attn", "c_proj", "c_fc"};
    case Arch::Bert:
      return {"query", "key", "value"};
    case Arch::T5:
      return {"q", "k", "v", "o"};
    case Arch::Llama:
    case Arch::DeepSeek:
      break;
  }
  if (model_type == "phi3") return {"qkv_proj", "o_proj", "gate_up_proj", "down_proj"};
  return {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
}

std::int64_t Geometry::mlp_active_width() const {
  if (experts == 0) return intermediate;
  return experts_per_token * moe_intermediate + shared_expert_intermediate;
}

namespace {

/// A hub id without what does not change the shape: case, `-Instruct`/`-chat` anywhere, `-hf`/`-it`/`-pt`/`-base`
/// at the end.
std::string normal_id(std::string_view in) {
  std::string id = lower(in);
  while (!id.empty() && (id.back() == '/' || id.back() == ' ')) id.pop_back();
  for (std::string_view infix : {"-instruct", "-chat"}) {
    for (auto p = id.find(infix); p != std::string::npos; p = id.find(infix)) id.erase(p, infix.size());
  }
  for (std::string_view suffix : {"-2407", "-hf", "-it", "-pt", "-base"}) {
    if (id.size() > suffix.size() && id.ends_with(suffix)) id.resize(id.size() - suffix.size());
  }
  return id;
}

std::string bare_name(const std::string& id) {
  const auto slash = id.rfind('/');
  return slash == std::string::npos ? id : id.substr(slash + 1);
}

/// normal_id and bare_name of each entry of builtin_geometries(), in its order: computed once, every launch that
/// names a model asks.
struct TableIds {
  std::vector<std::string> normal;
  std::vector<std::string> bare;
};

const TableIds& table_ids() {
  static const TableIds ids = [] {
    TableIds t;
    for (const Geometry& g : builtin_geometries()) {
      t.normal.push_back(normal_id(g.id));
      t.bare.push_back(bare_name(t.normal.back()));
    }
    return t;
  }();
  return ids;
}

}  // namespace

const Geometry* find_geometry(std::string_view id_in) {
  const std::string id = normal_id(id_in);
  if (id.empty()) return nullptr;
  const auto& table = builtin_geometries();
  const TableIds& ids = table_ids();
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (ids.normal[i] == id) return &table[i];
  }
  // The name without its organisation (a mirror, or a local folder named after the model).
  const std::string bare = bare_name(id);
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (table[i].id.starts_with("llama3/")) continue;
    if (ids.bare[i] == bare) return &table[i];
  }
  if (bare == "meta-llama-3.1-8b") return find_geometry("meta-llama/Llama-3.1-8B");
  return nullptr;
}

std::optional<Geometry> geometry_from_config(const parse::Node& root, std::string source, std::string& why) {
  auto num = [&](std::string_view key) -> std::optional<std::int64_t> {
    const parse::Node* n = root.find(key);
    if (n == nullptr || n->kind != parse::NodeKind::Int) return std::nullopt;
    return n->integer;
  };
  auto str = [&](std::string_view key) -> std::string {
    const parse::Node* n = root.find(key);
    return n != nullptr && n->kind == parse::NodeKind::String ? n->text : std::string{};
  };
  auto boolean = [&](std::string_view key, bool dflt) {
    const parse::Node* n = root.find(key);
    return n != nullptr && n->kind == parse::NodeKind::Bool ? n->boolean : dflt;
  };
  if (!root.is_map()) {
    why = "config.json is not an object";
    return std::nullopt;
  }
  Geometry g;
  g.source = std::move(source);
  g.model_type = str("model_type");
  g.id = g.source;
  static const std::vector<std::pair<std::string_view, std::string_view>> kLlamaLike = {
      {"llama", "LlamaDecoderLayer"},
      {"mistral", "MistralDecoderLayer"},
      {"mixtral", "MixtralDecoderLayer"},
      {"qwen2", "Qwen2DecoderLayer"},
      {"qwen2_moe", "Qwen2MoeDecoderLayer"},
      {"qwen3", "Qwen3DecoderLayer"},
      {"qwen3_moe", "Qwen3MoeDecoderLayer"},
      {"gemma", "GemmaDecoderLayer"},
      {"gemma2", "Gemma2DecoderLayer"},
      {"gemma3_text", "Gemma3DecoderLayer"},
      {"phi3", "Phi3DecoderLayer"},
      {"olmo2", "Olmo2DecoderLayer"},
      {"deepseek_v2", "DeepseekV2DecoderLayer"},
      {"deepseek_v3", "DeepseekV3DecoderLayer"}};
  const auto it =
      std::find_if(kLlamaLike.begin(), kLlamaLike.end(), [&](const auto& p) { return p.first == g.model_type; });
  if (g.model_type == "gpt2") {
    g.arch = Arch::Gpt2;
    g.decoder_layer_class = "GPT2Block";
    g.hidden = num("n_embd").value_or(0);
    g.layers = num("n_layer").value_or(0);
    g.heads = g.kv_heads = num("n_head").value_or(0);
    g.intermediate = num("n_inner").value_or(4 * g.hidden);
    g.max_positions = num("n_positions").value_or(1024);
    g.vocab = num("vocab_size").value_or(50257);
    g.tied = true;
  } else if (g.model_type == "bert" || g.model_type == "t5") {
    const bool t5 = g.model_type == "t5";
    g.arch = t5 ? Arch::T5 : Arch::Bert;
    g.decoder_layer_class = t5 ? "T5Block" : "BertLayer";
    g.hidden = num(t5 ? "d_model" : "hidden_size").value_or(0);
    g.layers = num(t5 ? "num_layers" : "num_hidden_layers").value_or(0);
    g.heads = g.kv_heads = num(t5 ? "num_heads" : "num_attention_heads").value_or(0);
    g.head_dim = t5 ? num("d_kv").value_or(64) : 0;
    g.intermediate = num(t5 ? "d_ff" : "intermediate_size").value_or(0);
    g.vocab = num("vocab_size").value_or(0);
    g.max_positions = num("max_position_embeddings").value_or(512);
    g.tied = boolean("tie_word_embeddings", true);
  } else if (it != kLlamaLike.end()) {
    g.decoder_layer_class = std::string(it->second);
    g.hidden = num("hidden_size").value_or(0);
    g.layers = num("num_hidden_layers").value_or(0);
    g.heads = num("num_attention_heads").value_or(0);
    g.kv_heads = num("num_key_value_heads").value_or(g.heads);
    g.head_dim = num("head_dim").value_or(0);
    g.intermediate = num("intermediate_size").value_or(0);
    g.vocab = num("vocab_size").value_or(0);
    const bool gemma = g.model_type.starts_with("gemma");
    // Llama-family configs default to an untied head; Gemma configs to a tied one.
    g.tied = boolean("tie_word_embeddings", gemma);
    g.qkv_bias = g.model_type == "qwen2" || g.model_type == "qwen2_moe" || boolean("attention_bias", false);
    g.qk_norm = g.model_type.starts_with("qwen3") || g.model_type == "gemma3_text" || g.model_type == "olmo2";
    if (g.model_type == "gemma2" || g.model_type == "gemma3_text") g.norms_per_layer = 4;
    if (const auto* cap = root.find("final_logit_softcapping"))
      g.logit_softcap = (cap->kind == parse::NodeKind::Float || cap->kind == parse::NodeKind::Int) && cap->number > 0;
    else
      g.logit_softcap = g.model_type == "gemma2";  // Gemma2Config's default is 30.0
    g.experts = num("num_local_experts").value_or(num("num_experts").value_or(num("n_routed_experts").value_or(0)));
    g.experts_per_token = num("num_experts_per_tok").value_or(0);
    g.moe_intermediate = num("moe_intermediate_size").value_or(g.model_type == "mixtral" ? g.intermediate : 0);
    if (g.model_type == "qwen2_moe") {
      g.shared_expert_intermediate = num("shared_expert_intermediate_size").value_or(0);
      g.shared_expert_gate = true;
    }
    if (g.model_type.starts_with("deepseek")) {
      g.arch = Arch::DeepSeek;
      g.q_lora_rank = num("q_lora_rank").value_or(0);
      g.kv_lora_rank = num("kv_lora_rank").value_or(0);
      g.qk_nope_head_dim = num("qk_nope_head_dim").value_or(0);
      g.qk_rope_head_dim = num("qk_rope_head_dim").value_or(0);
      g.v_head_dim = num("v_head_dim").value_or(0);
      g.shared_expert_intermediate = num("n_shared_experts").value_or(0) * g.moe_intermediate;
      g.first_dense_layers = num("first_k_dense_replace").value_or(0);
    }
  } else {
    why = g.model_type.empty() ? "config.json has no model_type" : "model_type '" + g.model_type + "' is not modelled";
    return std::nullopt;
  }
  if (g.hidden <= 0 || g.layers <= 0 || g.heads <= 0 || g.vocab <= 0 || g.intermediate <= 0) {
    why = "config.json lacks a positive hidden size, layer count, head count, MLP width or vocabulary";
    return std::nullopt;
  }
  if (g.kv_heads <= 0) g.kv_heads = g.heads;
  return g;
}

}  // namespace lint::memory
