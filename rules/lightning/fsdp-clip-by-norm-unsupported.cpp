// PL001: Lightning Trainer with an FSDP strategy and gradient clipping by norm (the default algorithm): the FSDP
// precision plugin raises MisconfigurationException at the first clipping step.
#include <string>

#include "rules/lightning/lightning_support.hpp"

namespace lint::rules {
namespace {

/// True when `v` is Lightning's FSDP strategy: the string "fsdp" (registered aliases start with it) or an
/// FSDPStrategy(...) object.
std::optional<bool> is_fsdp(const model::Value& v) {
  if (v.kind == model::ValueKind::String) return v.text.starts_with("fsdp");
  if (v.kind == model::ValueKind::Object) return v.text.ends_with("FSDPStrategy");
  if (v.kind == model::ValueKind::Unknown) return std::nullopt;
  return false;
}

class FsdpClipByNormUnsupported final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::PythonScript || !doc.python) return;
    for (const model::PyCall& c : doc.python->calls) {
      if (!lightning::is_lightning_trainer(c)) continue;
      const model::PyArg* strategy = c.keyword("strategy");
      const model::PyArg* clip = c.keyword("gradient_clip_val");
      if (strategy == nullptr || clip == nullptr) continue;
      if (is_fsdp(strategy->value) != true) continue;
      const model::Value& cv = clip->value;
      const bool positive = (cv.kind == model::ValueKind::Int && cv.integer > 0) ||
                            (cv.kind == model::ValueKind::Float && cv.number > 0.0);
      if (!positive) continue;
      const model::PyArg* algo = c.keyword("gradient_clip_algorithm");
      if (algo != nullptr && (algo->value.kind != model::ValueKind::String || algo->value.text != "norm")) continue;
      ctx.report(
          doc.path(), clip->region,
          "`gradient_clip_val=" + cv.text + "` clips by norm (" +
              std::string(algo != nullptr ? "gradient_clip_algorithm=\"norm\"" : "Lightning's default algorithm") +
              "), which the FSDP strategy's precision plugin does not support: the first optimizer step raises "
              "MisconfigurationException \"`gradient_clip_algorithm='norm'` is currently not supported for "
              "`FSDPPrecision`\". Use `gradient_clip_algorithm=\"value\"`, or clip by norm yourself in "
              "`configure_gradient_clipping` with the FSDP module's `clip_grad_norm_`.",
          {{doc.path(), strategy->region, "the FSDP strategy is chosen here"}});
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_fsdp_clip_by_norm_unsupported() {
  return std::make_unique<FsdpClipByNormUnsupported>();
}

}  // namespace lint::rules
