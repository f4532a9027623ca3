// MDL001: `transformer_layer_cls_to_wrap` names a decoder-layer class of another model family than the launched
// model's: accelerate raises at prepare(). Silent when the launched model is not known.
#include "lint/memory/shape.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// The classes a transformers model of this family defines start with its prefix (`Qwen2` for
/// `Qwen2DecoderLayer`); torch's own modules (`Linear`, `Embedding`) and PEFT's have no model prefix.
bool looks_like_other_family(const std::string& name, const std::string& layer_class) {
  if (name == layer_class) return false;
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
    const memory::TrainingShape shape = memory::read_training_shape(l);
    if (!shape.geometry || shape.geometry->decoder_layer_class.empty() || !shape.model_id.known()) return;
    const memory::Geometry& g = *shape.geometry;
    for (const model::Setting* s : settings) {
      if (s->origin == model::Origin::Default) continue;
      for (const Named& n : class_names(s->value)) {
        if (!looks_like_other_family(n.name, g.decoder_layer_class)) continue;
        std::string message = "`" + n.name + "` is not a class of the launched model `" + *shape.model_id.value +
                              "` (" + g.model_type + "), whose decoder layer is `" + g.decoder_layer_class +
                              "`: accelerate raises \"Could not find the transformer layer class " + n.name +
                              " in the model.\" at prepare() (accelerate 1.15 "
                              "src/accelerate/utils/dataclasses.py:2076-2078; FSDP2: utils/fsdp_utils.py:935-938). "
                              "Wrap `" +
                              g.decoder_layer_class + "`.";
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
