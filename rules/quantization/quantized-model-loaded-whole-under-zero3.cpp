// QNT007: a bitsandbytes-quantized model loaded by transformers under DeepSpeed ZeRO-3 (through the HF Trainer /
// accelerate integration): transformers creates a quantized model outside ZeRO-3's `zero.Init` (transformers 5.17
// `modeling_utils.py:3737-3751`), so every rank loads the whole quantized model onto its GPU before DeepSpeed
// partitions it. Oracle: `ds_results.json` `zero3-q4-storage`, `zero3-q4-default-storage`, `zero3-q8` record the
// model not partitioned after `from_pretrained`, where `zero3-plain` (the same model unquantized) is.
#include <cstdio>
#include <string>

#include "lint/memory/shape.hpp"
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

/// The whole quantized model in GiB, when the model is known: the decoder layers' linear weights at `bits` per
/// parameter, everything else (embeddings, head, norms) in 16 bits. nullopt when the model is not known.
std::optional<double> quantized_gib(const memory::Geometry& g, int bits) {
  // MoE expert weights are not among the block's named linear modules: no figure for those models.
  if (g.experts > 0 || g.layers <= 0) return std::nullopt;
  std::int64_t per_layer = 0;  // every dense decoder layer has the same linear modules
  for (const std::string& name : g.linear_names()) {
    if (auto shape = g.linear_shape(name)) per_layer += shape->first * shape->second;
  }
  const std::int64_t linear = per_layer * g.layers;
  const std::int64_t total = g.total_params();
  if (linear <= 0 || linear > total) return std::nullopt;
  const double bytes = static_cast<double>(linear) * bits / 8.0 + static_cast<double>(total - linear) * 2.0;
  return bytes / (1024.0 * 1024.0 * 1024.0);
}

class QuantizedModelLoadedWholeUnderZero3 final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    // Only the integration creates models inside zero.Init at all: plain deepspeed.initialize loads every model
    // whole, quantized or not.
    if (!ds.on || ds.zero_stage != 3 || ds.reader != model::DeepSpeedReader::Integration) return;
    const model::QuantizationFacts& q = model::quantization_facts(l);
    // `device_map=` under ZeRO-3 raises first (QNT002).
    if (!q.device_maps.empty()) return;
    std::optional<memory::TrainingShape> shape;
    for (const model::QuantizedLoad& load : q.loads) {
      // LLaMA-Factory refuses 8-bit under ZeRO-3 before loading (QNT003).
      if (load.bits == 8 && load.front_end == model::LoaderFrontEnd::LlamaFactory) continue;
      std::string msg = "bitsandbytes " + std::to_string(load.bits) + "-bit loading (`" + load.site.what +
                        "`) under DeepSpeed ZeRO-3: transformers creates a quantized model outside ZeRO-3's "
                        "`zero.Init`, so every rank loads the whole quantized model onto its GPU before DeepSpeed "
                        "partitions it";
      if (!shape) shape = memory::read_training_shape(l);
      if (shape->geometry) {
        if (auto gib = quantized_gib(*shape->geometry, load.bits)) {
          char buf[48];
          std::snprintf(buf, sizeof buf, "%.1f", *gib);
          msg += " (~" + std::string(buf) + " GiB per GPU for `" + shape->geometry->id + "`)";
        }
      }
      msg +=
          "; ZeRO-3 does not lower the load-time peak of the base model. Check that the whole quantized model fits "
          "one GPU; an unquantized model is partitioned while it loads.";
      ctx.report(load.site.path, load.site.region, msg, related_site(ds.stage_site, "ZeRO stage 3 is set here."));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_quantized_model_loaded_whole_under_zero3() {
  return std::make_unique<QuantizedModelLoadedWholeUnderZero3>();
}

}  // namespace lint::rules
