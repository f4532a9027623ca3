// QNT006: LLaMA-Factory training a checkpoint that is already quantized (GPTQ, AWQ, bitsandbytes) under DeepSpeed
// ZeRO-3 or FSDP, which it refuses (LLaMA-Factory v0.9.5 src/llamafactory/model/model_utils/quantization.py:90-101).
// FP8 checkpoints only below 0.9.4 (v0.9.3 quantization.py:90-94 refused them; v0.9.4 :97-113 dequantizes them).
// The quantization lives in the checkpoint's config.json; the launch files only show it in the model's name, so
// the rule reads the names the hubs give pre-quantized checkpoints.
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>

#include "lint/memory/shape.hpp"
#include "lint/model/versions.hpp"
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

/// The quantization a checkpoint's name says it has (`Qwen/Qwen-14B-Chat-Int4` -> GPTQ int4), or "" when it
/// names none. FP8 checkpoints (`-FP8`, and DeepSeek's V3 / R1 releases, whose config.json carries an FP8
/// `quantization_config`) only when `fp8` is set: LLaMA-Factory refused them under ZeRO-3 / FSDP up to 0.9.3 and
/// dequantizes them from 0.9.4 (v0.9.4 `quantization.py:97-101`). MXFP4 checkpoints are never matched.
std::string named_quantization(std::string_view id, bool fp8) {
  while (id.size() > 1 && id.back() == '/') id.remove_suffix(1);  // a local folder written `.../DeepSeek-R1/`
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
  if (!fp8) return "";
  if (token("fp8")) return "FP8";
  // DeepSeek-V3 / -V3-Base / -V3-0324 / -V3.1 / -R1 / -R1-Zero / -R1-0528 are published in FP8 (their config.json
  // has `quantization_config: {quant_method: fp8}`); the R1 distills (`DeepSeek-R1-Distill-Qwen-7B`) and BF16
  // conversions (`-bf16`) are not.
  const bool v3_or_r1 = name.starts_with("deepseek-v3") || name.starts_with("deepseek-r1");
  if (v3_or_r1 && name.find("distill") == std::string::npos && !token("bf16")) return "FP8";
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
    const model::TargetVersions& tv = model::target_versions();
    const bool fp8_refused = tv.before("llamafactory", model::Version{0, 9, 4});
    const std::string what = named_quantization(*shape.model_id.value, fp8_refused);
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
                   "models.\") when it loads it (" +
                   (what == "FP8"
                        ? "LLaMA-Factory " + tv.get("llamafactory").display() + " (" + tv.get("llamafactory").origin +
                              "), v0.9.3 `src/llamafactory/model/model_utils/quantization.py:90-94`; "
                              "from 0.9.4 FP8 checkpoints are dequantized instead). Upgrade LLaMA-Factory, "
                              "train a BF16 conversion, or use ZeRO-2 / DDP."
                        : std::string("v0.9.5 `src/llamafactory/model/model_utils/quantization.py:90-101`; "
                                      "older releases fail in transformers' loading under ZeRO-3). Train "
                                      "the original checkpoint with `quantization_bit: 4` (QLoRA), or use "
                                      "ZeRO-2 / DDP for the quantized one.")),
               std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_prequantized_model_under_sharding() {
  return std::make_unique<PrequantizedModelUnderSharding>();
}

}  // namespace lint::rules
