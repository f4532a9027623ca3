// QNT006: LLaMA-Factory training a checkpoint that is already quantized (GPTQ, AWQ, bitsandbytes) under DeepSpeed
// ZeRO-3 or FSDP, which it refuses (LLaMA-Factory v0.9.5 src/llamafactory/model/model_utils/quantization.py:90-101).
// The quantization lives in the checkpoint's config.json; the launch files only show it in the model's name, so
// the rule reads the names the hubs give pre-quantized checkpoints.
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

#include "lint/memory/shape.hpp"
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

/// The quantization a checkpoint's name says it has (`Qwen/Qwen-14B-Chat-Int4` -> GPTQ int4), or "" when it
/// names none. FP8 / MXFP4 checkpoints are not matched: LLaMA-Factory dequantizes or accepts them.
std::string named_quantization(std::string_view id) {
  const auto slash = id.rfind('/');
  std::string name(slash == std::string_view::npos ? id : id.substr(slash + 1));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto token = [&name](std::string_view t) {
    // A name part: `-gptq`, `_awq`, `-int4` at a separator, followed by the end or another separator.
    for (std::size_t at = name.find(t); at != std::string::npos; at = name.find(t, at + 1)) {
      const bool starts = at == 0 || name[at - 1] == '-' || name[at - 1] == '_' || name[at - 1] == '.';
      const std::size_t end = at + t.size();
      const bool ends = end == name.size() || name[end] == '-' || name[end] == '_' || name[end] == '.';
      if (starts && ends) return true;
    }
    return false;
  };
  constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kTokens = {{
      {"gptq", "GPTQ"},
      {"awq", "AWQ"},
      {"int4", "GPTQ int4"},
      {"int8", "GPTQ int8"},
      {"bnb-4bit", "bitsandbytes 4-bit"},
      {"bnb-8bit", "bitsandbytes 8-bit"},
      {"4bit", "4-bit"},
  }};
  for (const auto& [t, what] : kTokens) {
    if (token(t)) return std::string(what);
  }
  return "";
}

bool is_llamafactory(const model::Launch& l) {
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::LlamaFactoryConfig) return true;
    if (d->kind == model::DocKind::PythonScript && d->python && model::is_llamafactory_script(*d->python)) return true;
  }
  return false;
}

class PrequantizedModelUnderSharding final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    const bool zero3 = ds.on && ds.zero_stage == 3;
    if (!zero3 && !l.fsdp_enabled()) return;
    if (!is_llamafactory(l)) return;
    const memory::TrainingShape& shape = memory::read_training_shape(l);
    if (!shape.model_id.known() || shape.model_id.site.path.empty()) return;
    const std::string what = named_quantization(*shape.model_id.value);
    if (what.empty()) return;
    const std::string sharding = zero3 ? "DeepSpeed ZeRO-3" : "FSDP";
    std::vector<rule::RelatedLocation> related;
    if (zero3) {
      related = related_site(ds.stage_site, "ZeRO stage 3 is set here.");
    } else if (const model::Setting* s = fsdp_site(l)) {
      related.push_back({s->path, s->region, "FSDP is turned on here."});
    }
    ctx.report(shape.model_id.site.path, shape.model_id.site.region,
               "`" + *shape.model_id.value + "` is named as an already quantized (" + what +
                   ") checkpoint, trained here under " + sharding +
                   ": LLaMA-Factory raises ValueError(\"DeepSpeed ZeRO-3 or FSDP is incompatible with PTQ-quantized "
                   "models.\") when it loads it (v0.9.5 `src/llamafactory/model/model_utils/quantization.py:90-101`; "
                   "older releases fail in transformers' loading under ZeRO-3). Train the original checkpoint with "
                   "`quantization_bit: 4` (QLoRA), or use ZeRO-2 / DDP for the quantized one.",
               std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_prequantized_model_under_sharding() {
  return std::make_unique<PrequantizedModelUnderSharding>();
}

}  // namespace lint::rules
