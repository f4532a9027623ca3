// MDL001: `transformer_layer_cls_to_wrap` names a decoder-layer class of another model family than the launched
// model's: accelerate raises at prepare(). Silent when the launched model is not known.
#include <cctype>

#include "lint/memory/shape.hpp"
#include "lint/model/versions.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// The classes a transformers model of this family defines start with its prefix (`Qwen2` for
/// `Qwen2DecoderLayer`); torch's own modules (`Linear`, `Embedding`) and PEFT's have no model prefix.
bool looks_like_other_family(const std::string& name, const std::string& layer_class) {
  if (name == layer_class) return false;
  // A transformers text model has one decoder-layer class, so another `*DecoderLayer` is another model's even when
  // it shares the prefix: `Gemma2DecoderLayer` for a Gemma model raises like `LlamaDecoderLayer` does (oracle case
  // mdl-gemma-v2-gemma2-layer). `*Block` names keep the prefix test: Mixtral has `MixtralSparseMoeBlock` too.
  if (name.ends_with("DecoderLayer") && layer_class.ends_with("DecoderLayer")) return true;
  std::string prefix = layer_class;
  for (std::string_view suffix : {"DecoderLayer", "Block", "Layer"}) {
    if (prefix.ends_with(suffix)) {
      prefix.resize(prefix.size() - suffix.size());
      break;
    }
  }
  if (!prefix.empty() && name.starts_with(prefix)) return false;
  return name.ends_with("DecoderLayer") || name.ends_with("Block") || name.ends_with("EncoderLayer");
}

/// A model family named in a hub id or folder name that the geometry table does not hold (`huggyllama/llama-7b`):
/// its transformers model type and decoder-layer class. Only names whose family is unambiguous: none for
/// multimodal or merged models (`Llama-3.2-11B-Vision` is `mllama`), none when two families are named.
struct Family {
  std::string_view token;  ///< matched in the lowercased name part of the id
  std::string_view model_type;
  std::string_view layer_class;  ///< transformers' class, as accelerate compares it (`__class__.__name__`)
};

constexpr Family kFamilies[] = {
    {"llama", "llama", "LlamaDecoderLayer"},
    {"mistral", "mistral", "MistralDecoderLayer"},
    {"mixtral", "mixtral", "MixtralDecoderLayer"},
    {"qwen1.5", "qwen2", "Qwen2DecoderLayer"},
    {"qwen2", "qwen2", "Qwen2DecoderLayer"},
    {"qwen3", "qwen3", "Qwen3DecoderLayer"},
    {"falcon", "falcon", "FalconDecoderLayer"},
    {"opt-", "opt", "OPTDecoderLayer"},
    {"gpt2", "gpt2", "GPT2Block"},
    {"bloom", "bloom", "BloomBlock"},
    {"pythia", "gpt_neox", "GPTNeoXLayer"},
    {"gpt-neox", "gpt_neox", "GPTNeoXLayer"},
    {"xlm-roberta", "xlm-roberta", "XLMRobertaLayer"},
    {"roberta", "roberta", "RobertaLayer"},
    {"bert-", "bert", "BertLayer"},
    {"t5-", "t5", "T5Block"},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool iequal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && lower(a) == lower(b);
}

std::optional<Family> inferred_family(std::string_view id) {
  std::string name = lower(id.substr(id.find_last_of('/') == std::string_view::npos ? 0 : id.find_last_of('/') + 1));
  for (std::string_view multimodal : {"vision", "llava", "-vl", "vl-", "audio", "omni", "moe"}) {
    if (name.find(multimodal) != std::string::npos) return std::nullopt;
  }
  name += "-";  // `t5-`, `opt-`, `bert-` also match at the end of the name
  // XLM-RoBERTa has its own classes (`XLMRobertaLayer`): its ids also contain `roberta`, which is not its family.
  const bool xlm = name.find("xlm-roberta") != std::string::npos || name.find("xlm_roberta") != std::string::npos;
  std::optional<Family> found;
  for (const Family& f : kFamilies) {
    const bool matches = f.model_type == "xlm-roberta" ? xlm
                                                       : !(xlm && f.model_type == "roberta") &&
                                                             name.find(f.token) != std::string::npos;
    if (!matches) continue;
    // `mixtral` is not `mistral`, `roberta` contains no `bert-`; two different families: a merge, unknown.
    if (found && found->model_type != f.model_type) return std::nullopt;
    found = f;
  }
  return found;
}

/// For a model known only by a family named in its id: report a class that is the family's own decoder layer
/// spelled with other capitals (`LLaMADecoderLayer`, the name before transformers' rename) or another family's
/// decoder layer. Anything else (remote-code classes, attention or MLP classes) stays unknown.
bool wrong_for_family(const std::string& name, const Family& f) {
  if (name == f.layer_class) return false;
  if (iequal(name, f.layer_class)) return true;
  for (const Family& other : kFamilies) {
    if (other.model_type != f.model_type && name == other.layer_class) return true;
  }
  return false;
}

struct Named {
  std::string name;
  source::Region region;
};

std::vector<Named> class_names(const model::Value& v) {
  std::vector<Named> out;
  if (v.kind == model::ValueKind::List) {
    for (const model::Value& i : v.items) {
      if (i.kind == model::ValueKind::String) out.push_back({i.text, i.region.valid() ? i.region : v.region});
    }
  } else if (v.kind == model::ValueKind::String) {
    std::string cur;
    for (char c : v.text + ",") {
      if (c == ',' || c == ' ') {
        if (!cur.empty()) out.push_back({cur, v.region});
        cur.clear();
      } else {
        cur += c;
      }
    }
  }
  return out;
}

class WrapClassNotInModel final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Value& fsdp = l.value(model::keys::kFsdpEnabled);
    if (fsdp.kind == model::ValueKind::Bool && !fsdp.boolean) return;
    const auto settings = l.assignments(model::keys::kTransformerLayerCls);
    if (settings.empty()) return;
    const memory::TrainingShape& shape = memory::read_training_shape(l);
    if (!shape.model_id.known()) return;
    std::string model_type;
    std::string layer_class;
    std::optional<Family> family;
    if (shape.geometry) {
      model_type = shape.geometry->model_type;
      layer_class = shape.geometry->decoder_layer_class;
    } else if ((family = inferred_family(*shape.model_id.value))) {
      model_type = std::string(family->model_type) + ", from the name";
      layer_class = family->layer_class;
    }
    if (layer_class.empty()) return;
    for (const model::Setting* s : settings) {
      if (s->origin == model::Origin::Default) continue;
      for (const Named& n : class_names(s->value)) {
        if (family ? !wrong_for_family(n.name, *family) : !looks_like_other_family(n.name, layer_class)) continue;
        // A transformers 4.x Trainer (its wrap classes read by trainer::collect_v4_wrap_classes) raises itself.
        const bool v4_trainer = s->origin == model::Origin::TrainingArguments &&
                                model::target_versions().before("transformers", model::Version{5, 0, 0});
        std::string message = "`" + n.name + "` is not a class of the launched model `" + *shape.model_id.value +
                              "` (" + model_type + "), whose decoder layer is `" + layer_class + "`: ";
        if (v4_trainer) {
          message += "the Trainer of transformers 4.x raises \"Could not find the transformer layer class to wrap in "
                     "the model.\" when it wraps the model (transformers 4.27 src/transformers/trainer.py:1442 "
                     "`_wrap_model`; from 4.30 accelerate's FSDP plugin raises it). Wrap `" +
                     layer_class + "`.";
        } else {
          message += "accelerate raises \"Could not find the transformer layer class " + n.name +
                     " in the model.\" at prepare() (accelerate 1.15 "
                     "src/accelerate/utils/dataclasses.py:2076-2078; FSDP2: utils/fsdp_utils.py:935-938). "
                     "Wrap `" +
                     layer_class + "`.";
        }
        std::vector<rule::RelatedLocation> related;
        if (!shape.model_id.site.path.empty())
          related.push_back({shape.model_id.site.path, shape.model_id.site.region, "The launched model."});
        ctx.report(s->path, n.region.valid() ? n.region : s->region, std::move(message), std::move(related),
                   std::nullopt, std::string(s->key));
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_wrap_class_not_in_model() {
  return std::make_unique<WrapClassNotInModel>();
}

}  // namespace lint::rules
