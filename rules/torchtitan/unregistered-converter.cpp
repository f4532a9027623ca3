// TT007: a model.converters name torchtitan has not registered (e.g. `float8` for `quantize.linear.float8`).
#include <algorithm>
#include <array>
#include <string>

#include "rules/torchtitan/torchtitan_support.hpp"

namespace lint::rules {
namespace {

// Registered in v0.2.2: torchtitan/components/quantization/float8.py:238-239, mx.py:171-172.
constexpr std::array<std::string_view, 4> kRegistered = {"quantize.linear.float8", "quantize.grouped_mm.float8",
                                                         "quantize.linear.mx", "quantize.grouped_mm.mx"};

std::string suggestion(std::string_view name) {
  if (name == "float8") return " Use \"quantize.linear.float8\" (the v0.2 name of the float8 linear converter).";
  if (name == "mx") return " Use \"quantize.linear.mx\".";
  for (std::string_view r : kRegistered) {
    if (r.ends_with(name)) return " Did you mean \"" + std::string(r) + "\"?";
  }
  return " Registered names: quantize.linear.float8, quantize.grouped_mm.float8, quantize.linear.mx, "
         "quantize.grouped_mm.mx.";
}

class UnregisteredConverter final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = torchtitan::config_of(l);
    if (doc == nullptr || torchtitan::command_overrides(l, "model")) return;
    // A custom config module (job.custom_config_module) may come with its own converters.
    const parse::Node* job = torchtitan::table(*doc, "job");
    if (job != nullptr && job->find("custom_config_module") != nullptr) return;
    const parse::Node* mt = torchtitan::table(*doc, "model");
    const parse::Node* conv = mt != nullptr ? mt->find("converters") : nullptr;
    if (conv == nullptr || conv->kind != parse::NodeKind::Sequence) return;
    for (const parse::Node& c : conv->items) {
      if (c.kind != parse::NodeKind::String) continue;
      if (std::find(kRegistered.begin(), kRegistered.end(), c.text) != kRegistered.end()) continue;
      ctx.report(
          doc->path(), c.region,
          "\"" + c.text +
              "\" is not a registered model converter in torchtitan 0.2: it looks converters up "
              "by name in its registry (torchtitan/protocols/model_converter.py:61-63) and fails with KeyError: '" +
              c.text + "' when building the model." + suggestion(c.text));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_unregistered_converter() {
  return std::make_unique<UnregisteredConverter>();
}

}  // namespace lint::rules
