// DS003: a key DeepSpeed does not know: an error inside the sections it validates, a warning at top level (ignored).
#include "lint/model/versions.hpp"
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

template <std::size_t N>
void check_section(const model::Document& doc, const parse::Node& section, std::string_view name,
                   const std::array<std::string_view, N>& known, rule::RuleContext& ctx) {
  if (!section.is_map()) return;
  for (const parse::Entry& e : section.entries) {
    if (contains(known, e.key.text)) continue;
    // Non-strict DeepSpeed models drop "auto" values before validating (config_utils.py:55-56).
    if (e.value.kind == parse::NodeKind::String && e.value.text == "auto") continue;
    std::string msg = "`" + e.key.text + "` is not a key of DeepSpeed's `" + std::string(name) +
                      "` section, which rejects unknown keys: deepspeed.initialize fails with a pydantic "
                      "ValidationError (\"Extra inputs are not permitted\").";
    const std::string_view near = model::accelerate::closest(e.key.text, known);
    if (!near.empty()) msg += " Did you mean `" + std::string(near) + "`?";
    ctx.report(doc.path(), e.key.region, msg);
  }
}

class UnknownDeepspeedKey final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::DeepSpeedConfig || doc.root_map() == nullptr) return;
    const parse::Node& root = *doc.root_map();
    if (const parse::Node* zo = root.find("zero_optimization"); zo != nullptr && zo->is_map()) {
      check_section(doc, *zo, "zero_optimization", kZeroKeys, ctx);
      if (const parse::Node* p = zo->find("offload_param"))
        check_section(doc, *p, "zero_optimization.offload_param", kOffloadParamKeys, ctx);
      if (const parse::Node* o = zo->find("offload_optimizer"))
        check_section(doc, *o, "zero_optimization.offload_optimizer", kOffloadOptimizerKeys, ctx);
    }
    // The fp16 and bf16 sections are pydantic models from DeepSpeed 0.17.1 (deepspeed/runtime/precision_config.py);
    // before, config.py read their keys one by one with get_scalar_param and never looked at the others. A
    // DeepSpeed of unknown release (installed from a fork's URL) is not judged.
    if (model::target_versions().at_least("deepspeed", {0, 17, 1})) {
      if (const parse::Node* f = root.find("fp16")) check_section(doc, *f, "fp16", kFp16Keys, ctx);
      if (const parse::Node* b = root.find("bf16"))
        check_section(doc, *b, "bf16", kBf16Keys, ctx);
      else if (const parse::Node* b2 = root.find("bfloat16"))
        check_section(doc, *b2, "bfloat16", kBf16Keys, ctx);
    }
    if (const parse::Node* m = root.find("tensorboard")) check_section(doc, *m, "tensorboard", kTensorBoardKeys, ctx);
    if (const parse::Node* m = root.find("csv_monitor")) check_section(doc, *m, "csv_monitor", kCsvMonitorKeys, ctx);
    if (const parse::Node* m = root.find("wandb")) check_section(doc, *m, "wandb", kWandbKeys, ctx);
    if (const parse::Node* m = root.find("comet")) check_section(doc, *m, "comet", kCometKeys, ctx);
    // Top level: DeepSpeed reads known keys with dict.get and never looks at the others. Only a near miss of a
    // known key is reported (other keys belong to tools that share the file).
    // Names of DeepSpeed's config object that are no keys of the JSON (DeepSpeed 0.19.5 runtime/config.py sets
    // `self.monitor_config = get_monitor_config(param_dict)`, which reads the four monitor sections
    // (monitor/config.py), and `self.comms_config = DeepSpeedCommsConfig(param_dict)`, which reads `comms_logger`
    // (comm/config.py)): written as keys, they are ignored.
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kAttributeNames = {{
        {"monitor_config", "`tensorboard`, `wandb`, `csv_monitor` or `comet`"},
        {"comms_config", "`comms_logger`"},
    }};
    for (const parse::Entry& e : root.entries) {
      if (contains(kTopLevelKeys, e.key.text) || e.key.text.starts_with("//") || e.key.text.starts_with("_")) continue;
      if (const auto* a = std::find_if(kAttributeNames.begin(), kAttributeNames.end(),
                                       [&](const auto& p) { return p.first == e.key.text; });
          a != kAttributeNames.end()) {
        ctx.report(doc.path(), e.key.region,
                   "`" + e.key.text +
                       "` is the name of an attribute of DeepSpeed's config object, not a key of "
                       "its JSON: DeepSpeed reads " +
                       std::string(a->second) +
                       " at the top level and silently "
                       "ignores this section. Move its settings there.",
                   {}, rule::Severity::Warning);
        continue;
      }
      // Short keys ("comment", "notes") are too close to short DeepSpeed keys by chance.
      if (e.key.text.size() < 10) continue;
      const std::string_view near = model::accelerate::closest(e.key.text, kTopLevelKeys);
      if (near.empty()) continue;
      ctx.report(doc.path(), e.key.region,
                 "`" + e.key.text +
                     "` is not a DeepSpeed key; DeepSpeed reads top-level keys by name and silently "
                     "ignores this one. Did you mean `" +
                     std::string(near) + "`?",
                 {}, rule::Severity::Warning);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unknown_deepspeed_key() {
  return std::make_unique<UnknownDeepspeedKey>();
}

}  // namespace lint::rules
