// MDL003: the LoRA target modules of a launch name no module of the launched model's family (`q_proj,v_proj` for
// ChatGLM, whose attention projection is `query_key_value`): PEFT matches none and raises "Target modules ... not
// found in the base model" (peft v0.20.0 src/peft/tuners/tuners_utils.py:1002-1012, matching at 1894-1933).
// Silent when the family is not known from the model id or when any target names a module of the family.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/memory/shape.hpp"
#include "lint/model/deepspeed_facts.hpp"
#include "lint/model/lazy_config.hpp"
#include "lint/model/versions.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// A model family and the names of its modules (the last component of every `named_modules()` key, so that a
/// target matches when PEFT's `key.endswith("." + target)` would). The linear projections come first, for the
/// message.
struct Family {
  std::string_view name;
  std::string_view linear;  ///< the linear layers LoRA is usually put on, comma-separated
  std::vector<std::string_view> modules;
  std::string_view source;  ///< where the module names are defined
};

const std::vector<Family>& families() {
  static const std::vector<Family> table = {
      {"llama-style (Llama, Mistral, Qwen1.5/2/2.5/3, Yi)",
       "q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj",
       {"q_proj",    "k_proj",     "v_proj",  "o_proj",          "gate_proj",
        "up_proj",   "down_proj",  "model",   "embed_tokens",    "layers",
        "self_attn", "mlp",        "act_fn",  "input_layernorm", "post_attention_layernorm",
        "norm",      "rotary_emb", "lm_head", "score",           "q_norm",
        "k_norm"},
       "transformers src/transformers/models/llama/modeling_llama.py (LlamaAttention, LlamaMLP)"},
      {"ChatGLM",
       "query_key_value,dense,dense_h_to_4h,dense_4h_to_h",
       {"query_key_value",
        "dense",
        "dense_h_to_4h",
        "dense_4h_to_h",
        "transformer",
        "embedding",
        "word_embeddings",
        "rotary_pos_emb",
        "rotary_emb",
        "encoder",
        "layers",
        "input_layernorm",
        "self_attention",
        "attention",
        "core_attention",
        "attention_dropout",
        "post_attention_layernorm",
        "mlp",
        "final_layernorm",
        "output_layer",
        "lm_head",
        "prefix_encoder"},
       "the model's remote code, modeling_chatglm.py (SelfAttention, MLP)"},
      {"Baichuan",
       "W_pack,o_proj,gate_proj,up_proj,down_proj",
       {"W_pack", "o_proj", "gate_proj", "up_proj", "down_proj", "model", "embed_tokens", "layers", "self_attn",
        "rotary_emb", "mlp", "act_fn", "input_layernorm", "post_attention_layernorm", "norm", "lm_head"},
       "the model's remote code, modeling_baichuan.py (Attention, MLP)"},
      {"Qwen (first generation)",
       "c_attn,c_proj,w1,w2",
       {"c_attn", "c_proj", "w1", "w2", "transformer", "wte", "drop", "rotary_emb", "h", "ln_1", "attn", "attn_dropout",
        "ln_2", "mlp", "ln_f", "lm_head"},
       "the model's remote code, modeling_qwen.py (QWenAttention, QWenMLP)"},
      {"GPT-2",
       "c_attn,c_proj,c_fc",
       {"c_attn", "c_proj", "c_fc", "transformer", "wte", "wpe", "drop", "h", "ln_1", "attn", "attn_dropout",
        "resid_dropout", "ln_2", "mlp", "act", "dropout", "ln_f", "lm_head", "score"},
       "transformers src/transformers/models/gpt2/modeling_gpt2.py (GPT2Attention, GPT2MLP)"},
      {"GPT-NeoX (Pythia, GPT-NeoX-20B)",
       "query_key_value,dense,dense_h_to_4h,dense_4h_to_h",
       {"query_key_value", "dense", "dense_h_to_4h", "dense_4h_to_h", "gpt_neox", "embed_in", "emb_dropout", "layers",
        "input_layernorm", "post_attention_layernorm", "post_attention_dropout", "post_mlp_dropout", "attention",
        "attention_dropout", "rotary_emb", "mlp", "act", "final_layer_norm", "embed_out"},
       "transformers src/transformers/models/gpt_neox/modeling_gpt_neox.py (GPTNeoXAttention, GPTNeoXMLP)"},
      {"Falcon",
       "query_key_value,dense,dense_h_to_4h,dense_4h_to_h",
       {"query_key_value", "dense", "dense_h_to_4h", "dense_4h_to_h", "transformer", "word_embeddings", "h", "ln_attn",
        "ln_mlp", "input_layernorm", "post_attention_layernorm", "self_attention", "attention_dropout", "rotary_emb",
        "mlp", "act", "ln_f", "lm_head"},
       "transformers src/transformers/models/falcon/modeling_falcon.py (FalconAttention, FalconMLP)"},
      {"BLOOM",
       "query_key_value,dense,dense_h_to_4h,dense_4h_to_h",
       {"query_key_value", "dense", "dense_h_to_4h", "dense_4h_to_h", "transformer", "word_embeddings",
        "word_embeddings_layernorm", "h", "input_layernorm", "self_attention", "attention_dropout",
        "post_attention_layernorm", "mlp", "gelu_impl", "ln_f", "lm_head"},
       "transformers src/transformers/models/bloom/modeling_bloom.py (BloomAttention, BloomMLP)"},
      {"T5",
       "q,k,v,o,wi,wo,wi_0,wi_1",
       {"q",
        "k",
        "v",
        "o",
        "wi",
        "wo",
        "wi_0",
        "wi_1",
        "shared",
        "encoder",
        "decoder",
        "block",
        "layer",
        "SelfAttention",
        "EncDecAttention",
        "relative_attention_bias",
        "DenseReluDense",
        "layer_norm",
        "final_layer_norm",
        "dropout",
        "act",
        "embed_tokens",
        "lm_head"},
       "transformers src/transformers/models/t5/modeling_t5.py (T5Attention, T5DenseActDense)"},
      {"OPT",
       "q_proj,k_proj,v_proj,out_proj,fc1,fc2",
       {"q_proj", "k_proj", "v_proj", "out_proj", "fc1", "fc2", "model", "decoder", "embed_tokens", "embed_positions",
        "project_in", "project_out", "final_layer_norm", "layers", "self_attn", "activation_fn", "self_attn_layer_norm",
        "lm_head"},
       "transformers src/transformers/models/opt/modeling_opt.py (OPTAttention, OPTDecoderLayer)"},
  };
  return table;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

/// The family one path component or hub-id name names, or nullptr. Multimodal and merged names stay unknown.
const Family* family_of_name(const std::string& raw) {
  const std::string name = lower(raw) + "-";
  for (std::string_view multimodal : {"vision", "llava",     "-vl",      "vl-",      "_vl",    "audio",   "omni",
                                      "moe",    "mixtral",   "deepseek", "internlm", "glm-4",  "glm4",    "phi",
                                      "gemma",  "starcoder", "codegen",  "xverse",   "aquila", "minicpm", "factory"}) {
    if (name.find(multimodal) != std::string::npos) return nullptr;
  }
  const auto& f = families();
  std::vector<const Family*> found;
  auto has = [&](std::string_view token) { return name.find(token) != std::string::npos; };
  if (has("chatglm")) found.push_back(&f[1]);
  // Baichuan-7B / -13B and Baichuan2 (`W_pack`); later Baichuan models are not assumed to share the names.
  if (has("baichuan-7b") || has("baichuan-13b") || has("baichuan2-")) found.push_back(&f[2]);
  // Qwen's first generation is `Qwen-7B`, `Qwen-14B-Chat`, `Qwen-1_8B`: `qwen-`/`qwen_` and a digit.
  for (std::size_t p = name.find("qwen"); p != std::string::npos; p = name.find("qwen", p + 1)) {
    if (p + 5 < name.size() && (name[p + 4] == '-' || name[p + 4] == '_') &&
        std::isdigit(static_cast<unsigned char>(name[p + 5])) != 0) {
      found.push_back(&f[3]);
      break;
    }
  }
  for (std::string_view llama : {"llama", "mistral", "qwen1.5", "qwen2", "qwen3", "yi-"}) {
    if (has(llama)) {
      found.push_back(&f[0]);
      break;
    }
  }
  if (has("gpt2")) found.push_back(&f[4]);
  if (has("gpt-neox") || has("gpt_neox") || has("pythia")) found.push_back(&f[5]);
  // FalconForCausalLM only: `falcon-7b`, `falcon-40b`, `falcon-rw-1b`, `falcon-11B`. Falcon3 is a Llama model and
  // Falcon-H1 / Falcon-Mamba are hybrids with `in_proj`: other module names.
  for (std::size_t p = name.find("falcon-"); p != std::string::npos; p = name.find("falcon-", p + 1)) {
    const std::string_view rest = std::string_view(name).substr(p + 7);
    if ((!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front())) != 0) || rest.starts_with("rw")) {
      found.push_back(&f[6]);
      break;
    }
  }
  if (has("bloom")) found.push_back(&f[7]);
  if (has("t5-")) found.push_back(&f[8]);
  if (has("opt-") && name.starts_with("opt-")) found.push_back(&f[9]);
  // A name that mentions two families (a merge, a distillation) is not known.
  for (const Family* x : found) {
    if (x != found.front()) return nullptr;
  }
  return found.empty() ? nullptr : found.front();
}

/// The family of a hub id or local path: the last component, or the one above it (`/models/chatglm2-6b/model` is
/// read from `chatglm2-6b`), or the model folder of LLaMA-Factory's `saves/<model>/...` layout.
const Family* family_of(std::string_view id) {
  std::vector<std::string> parts;
  std::string cur;
  for (char c : std::string(id) + "/") {
    if (c == '/' || c == '\\') {
      if (!cur.empty()) parts.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (const Family* f = family_of_name(*it)) return f;
    if (it == parts.rbegin()) continue;  // only one level up: a parent folder named after the model
    break;
  }
  // LLaMA-Factory writes its runs to `saves/<model>/<finetuning type>/<run>`: a checkpoint trained there and
  // trained again keeps the model's name three levels up.
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (parts[i] == "saves") return family_of_name(parts[i + 1]);
  }
  return nullptr;
}

struct Targets {
  std::vector<std::string> names;
  std::string path;
  source::Region region;
  std::string spelled;
  bool llamafactory_default = false;  ///< not written: the default of the LLaMA-Factory release in use
};

std::vector<std::string> split_list(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : std::string(s) + ",") {
    if (c == ',' || c == ' ') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

/// The LoRA targets the launch writes, when written in a form whose every name is known.
std::optional<Targets> written_targets(const model::Launch& l) {
  std::optional<Targets> out;
  int sources = 0;
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::PythonScript && d->python) {
      for (const model::PyCall& call : d->python->calls) {
        // `LoraConfig(...)`, or the lazy `dict(type=LoraConfig, ...)` of an xtuner config.
        const model::PyCall* c = &call;
        if (c->name != "LoraConfig" && !model::lazy_config_type(*c).ends_with(".LoraConfig")) continue;
        const model::PyArg* t = c->keyword("target_modules");
        if (t == nullptr) continue;
        ++sources;
        if (t->value.kind != model::ValueKind::List || t->value.items.empty()) return std::nullopt;
        Targets tg{{}, d->path(), t->region, "target_modules="};
        for (const model::Value& i : t->value.items) {
          if (i.kind != model::ValueKind::String) return std::nullopt;
          tg.names.push_back(i.text);
        }
        out = std::move(tg);
      }
      continue;
    }
    const parse::Node* root = d->root_map();
    if (root == nullptr) continue;
    std::string_view key;
    if (d->kind == model::DocKind::LlamaFactoryConfig) key = "lora_target";
    if (d->kind == model::DocKind::AxolotlConfig) {
      if (const parse::Node* lin = root->find("lora_target_linear");
          lin != nullptr && lin->kind == parse::NodeKind::Bool && lin->boolean)
        return std::nullopt;
      key = "lora_target_modules";
    }
    if (key.empty()) continue;
    const parse::Entry* e = root->find_entry(key);
    if (e == nullptr) continue;
    ++sources;
    Targets tg{{}, d->path(), e->value.region, std::string(key)};
    if (e->value.kind == parse::NodeKind::String) {
      tg.names = split_list(e->value.text);
    } else if (e->value.kind == parse::NodeKind::Sequence) {
      for (const parse::Node& i : e->value.items) {
        if (i.kind != parse::NodeKind::String) return std::nullopt;
        tg.names.push_back(i.text);
      }
    } else {
      return std::nullopt;
    }
    out = std::move(tg);
  }
  // LLaMA-Factory's entry script given its arguments on the command line (`--lora_target q_proj,v_proj`).
  if (const model::Document* script = model::launch_script(l);
      script != nullptr && script->python && model::is_llamafactory_script(*script->python)) {
    const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
    if (const model::ScriptFlag* f = model::find_script_flag(flags, "lora_target"); f && f->value) {
      if (!f->value->known) return std::nullopt;
      ++sources;
      out = Targets{split_list(f->value->text), f->path, f->region, f->from_yaml ? "lora_target" : "--lora_target"};
    }
  }
  // LLaMA-Factory's entry script given no `lora_target` at all: up to release 0.1.6 the default was `q_proj,v_proj`
  // whatever the model (LLaMA-Factory v0.1.6 src/llmtuner/hparams/finetuning_args.py:51-52, with `finetuning_type`
  // defaulting to `lora`, :11-12); from 0.1.7 it is None and PEFT picks the model type's own modules. Only when the
  // project pins a release older than 0.1.7.
  if (sources == 0 && l.command && l.command_document != nullptr &&
      model::target_versions().before("llamafactory", model::Version{0, 1, 7})) {
    if (const model::Document* script = model::launch_script(l);
        script != nullptr && script->python && model::is_llamafactory_script(*script->python) && l.command->script) {
      const std::vector<model::ScriptFlag>& flags = model::script_flags(l);
      const model::ScriptFlag* type = model::find_script_flag(flags, "finetuning_type");
      if (type != nullptr && (!type->value || !type->value->known || type->value->text != "lora")) return std::nullopt;
      if (type != nullptr) return Targets{{"q_proj", "v_proj"}, type->path, type->region, "lora_target", true};
      return Targets{{"q_proj", "v_proj"}, l.command_document->path(), l.command->script->region, "lora_target", true};
    }
  }
  if (sources != 1 || !out || out->names.empty()) return std::nullopt;
  return out;
}

bool plain_name(const std::string& s) {
  return std::all_of(s.begin(), s.end(),
                     [](unsigned char c) { return std::isalnum(c) != 0 || c == '_' || c == '.' || c == '-'; });
}

class LoraTargetNotInModel final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const std::optional<Targets> targets = written_targets(l);
    if (!targets) return;
    const memory::TrainingShape& shape = memory::read_training_shape(l);
    if (!shape.model_id.known()) return;
    const Family* family = family_of(*shape.model_id.value);
    if (family == nullptr) return;
    for (const std::string& t : targets->names) {
      // `all` (LLaMA-Factory), `all-linear` (PEFT), a pattern: PEFT or the trainer expands them.
      if (t == "all" || t == "all-linear" || !plain_name(t)) return;
      const std::string last = t.substr(t.rfind('.') == std::string::npos ? 0 : t.rfind('.') + 1);
      if (std::find(family->modules.begin(), family->modules.end(), last) != family->modules.end()) return;
    }
    std::string list;
    for (const std::string& t : targets->names) list += (list.empty() ? "`" : ", `") + t + "`";
    std::string message =
        (targets->llamafactory_default
             ? "No `lora_target` is given, and LLaMA-Factory before 0.1.7 (" +
                   model::target_versions().get("llamafactory").display() + " here) then targets " + list +
                   " (its default, src/llmtuner/hparams/finetuning_args.py:51-52 at v0.1.6); none of them"
             : "No LoRA target (" + list + ")") +
        " is a module of the launched model `" + *shape.model_id.value + "` (" + std::string(family->name) +
        ", from its name), whose linear layers are `" + std::string(family->linear) + "` (" +
        std::string(family->source) +
        "): PEFT matches none and raises \"Target modules ... not found in the base model\" "
        "(peft v0.20.0 src/peft/tuners/tuners_utils.py:1002-1012). " +
        std::string(targets->llamafactory_default
                        ? "Pass `--lora_target` with the model's own modules."
                        : "Target the model's own modules, or `all-linear` (LLaMA-Factory: `all`).");
    std::vector<rule::RelatedLocation> related;
    if (!shape.model_id.site.path.empty())
      related.push_back({shape.model_id.site.path, shape.model_id.site.region, "The launched model."});
    ctx.report(targets->path, targets->region, std::move(message), std::move(related), std::nullopt, targets->spelled);
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_lora_target_not_in_model() {
  return std::make_unique<LoraTargetNotInModel>();
}

}  // namespace lint::rules
