// TT005: enable_async_tensor_parallel with tensor parallelism but without compiling the model.
#include <string>

#include "rules/torchtitan/torchtitan_support.hpp"

namespace lint::rules {
namespace {

class AsyncTpNeedsCompile final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = torchtitan::config_of(l);
    if (doc == nullptr) return;
    if (torchtitan::command_overrides(l, "parallelism") || torchtitan::command_overrides(l, "compile")) return;
    const parse::Node* par = torchtitan::table(*doc, "parallelism");
    const parse::Node* async = par != nullptr ? par->find("enable_async_tensor_parallel") : nullptr;
    if (async == nullptr || async->kind != parse::NodeKind::Bool || !async->boolean) return;
    // Only reached when tensor parallelism is on (llama3/infra/parallelize.py:76-95).
    const auto tp = torchtitan::int_option(*doc, "parallelism", "tensor_parallel_degree", 1);
    if (!tp.value || *tp.value <= 1) return;
    const auto enable = torchtitan::bool_option(*doc, "compile", "enable", false);
    if (!enable) return;
    bool model_compiled = false;
    const parse::Node* comp = torchtitan::table(*doc, "compile");
    const parse::Node* components = comp != nullptr ? comp->find("components") : nullptr;
    if (components == nullptr) {
      model_compiled = true;  // default ["model", "loss"]
    } else if (components->kind == parse::NodeKind::Sequence) {
      for (const parse::Node& c : components->items) {
        if (c.kind != parse::NodeKind::String) return;
        model_compiled |= c.text == "model";
      }
    } else {
      return;
    }
    if (*enable && model_compiled) return;
    const std::string why =
        !*enable ? "`[compile] enable` is not true" : "`compile.components` does not list \"model\"";
    ctx.report(doc->path(), async->region,
               "Async tensor parallelism needs the model compiled, and " + why +
                   ": with tensor_parallel_degree = " + std::to_string(*tp.value) +
                   " torchtitan raises RuntimeError \"Async TP requires 'model' in --compile.components and "
                   "--compile.enable\" while parallelizing the model in every rank. Set `[compile] enable = true` "
                   "with \"model\" in `components`, or turn async TP off.");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_async_tp_needs_compile() {
  return std::make_unique<AsyncTpNeedsCompile>();
}

}  // namespace lint::rules
