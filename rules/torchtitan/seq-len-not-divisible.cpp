// TT003: training.seq_len not divisible by tp * 2 * cp: every torchtitan model's parallelize asserts it.
#include <string>

#include "rules/torchtitan/torchtitan_support.hpp"

namespace lint::rules {
namespace {

// Models whose parallelize function asserts `seq_len % parallel_dims.seq_len_divisor == 0` (v0.2.2); flux has no
// sequence length.
bool checks_seq_len(std::string_view model) {
  return model == "llama3" || model == "llama4" || model == "qwen3" || model == "deepseek_v3" || model == "gpt_oss";
}

class SeqLenNotDivisible final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = torchtitan::config_of(l);
    if (doc == nullptr) return;
    if (torchtitan::command_overrides(l, "training") || torchtitan::command_overrides(l, "parallelism") ||
        torchtitan::command_overrides(l, "model"))
      return;
    const parse::Node* mt = torchtitan::table(*doc, "model");
    const parse::Node* name = mt != nullptr ? mt->find("name") : nullptr;
    if (name != nullptr && (name->kind != parse::NodeKind::String || !checks_seq_len(name->text))) return;
    const auto seq = torchtitan::int_option(*doc, "training", "seq_len", 2048);
    const auto tp = torchtitan::int_option(*doc, "parallelism", "tensor_parallel_degree", 1);
    const auto cp = torchtitan::int_option(*doc, "parallelism", "context_parallel_degree", 1);
    if (!seq.value || !tp.value || !cp.value || *tp.value < 1 || *cp.value < 1 || *seq.value <= 0) return;
    const std::int64_t divisor = *tp.value * 2 * *cp.value;
    if (*seq.value % divisor == 0) return;
    const parse::Node* at = seq.node != nullptr ? seq.node : tp.node != nullptr ? tp.node : cp.node;
    if (at == nullptr) return;
    const source::Region region = at->region;
    std::vector<rule::RelatedLocation> related;
    for (const parse::Node* n : {tp.node, cp.node}) {
      if (n != nullptr && seq.node != nullptr) related.push_back({doc->path(), n->region, "the degree is set here"});
    }
    ctx.report(doc->path(), region,
               "`seq_len = " + std::to_string(*seq.value) + "` is not divisible by tp * 2 * cp = " +
                   std::to_string(*tp.value) + " * 2 * " + std::to_string(*cp.value) + " = " + std::to_string(divisor) +
                   ": the model's parallelize step asserts \"Sequence length ... must be divisible by the product of "
                   "TP degree and 2 * CP degree\" in every rank, after the processes have started. Use a multiple of " +
                   std::to_string(divisor) + ", e.g. " + std::to_string((*seq.value / divisor + 1) * divisor) + ".",
               related);
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_seq_len_not_divisible() {
  return std::make_unique<SeqLenNotDivisible>();
}

}  // namespace lint::rules
