// MDL002: a tensor-parallel degree that does not divide the launched model's attention or KV heads (each rank's
// share of the q/k/v projections is not a whole number of heads), or that spans more GPUs than one node has.
// Silent when the model or the degree is not known.
#include "lint/memory/shape.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class ParallelDegreeVsHeads final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const memory::TrainingShape& s = memory::read_training_shape(l);
    if (!s.geometry || !s.tp_degree.known() || !s.model_id.known()) return;
    const std::int64_t tp = *s.tp_degree.value;
    if (tp <= 1 || s.tp_degree.site.path.empty()) return;
    const memory::Geometry& g = *s.geometry;
    const std::string model = "`" + *s.model_id.value + "`";
    // Both implementations infer the local heads with view(..., -1, head_dim) after the column-sharded projection.
    const std::string where =
        s.tp_degree.site.path.ends_with(".toml")
            ? "torchtitan 0.2.2 torchtitan/models/llama3/model/model.py, Attention.forward"
            : "transformers 5.17 src/transformers/models/llama/modeling_llama.py, LlamaAttention.forward";
    auto report = [&](std::string message, std::optional<rule::Severity> sev = std::nullopt) {
      std::vector<rule::RelatedLocation> related;
      if (!s.model_id.site.path.empty())
        related.push_back({s.model_id.site.path, s.model_id.site.region, "The launched model."});
      ctx.report(s.tp_degree.site.path, s.tp_degree.site.region, std::move(message), std::move(related), sev);
    };
    if (g.heads > 0 && g.heads % tp != 0) {
      report("tensor-parallel degree " + std::to_string(tp) + " does not divide the " + std::to_string(g.heads) +
             " attention heads of " + model +
             ": each rank's column shard of the q projection is not a whole number "
             "of heads, and the attention's view into (-1, head_dim) fails (" +
             where + "). Use a divisor of " + std::to_string(g.heads) + ".");
      return;
    }
    if (g.kv_heads > 0 && g.kv_heads != g.heads && g.kv_heads % tp != 0) {
      report("tensor-parallel degree " + std::to_string(tp) + " does not divide the " + std::to_string(g.kv_heads) +
             " key/value heads of " + model +
             " (grouped-query attention): each rank's shard of the k and v projections "
             "is not a whole number of heads, and the attention's view into (-1, head_dim) fails (" +
             where + "). Use a divisor of " + std::to_string(g.kv_heads) + ".");
      return;
    }
    if (s.gpus_per_node.known() && tp > *s.gpus_per_node.value) {
      report("tensor-parallel degree " + std::to_string(tp) + " is larger than the " +
                 std::to_string(*s.gpus_per_node.value) +
                 " GPUs per node of this launch: tensor parallelism all-reduces activations in every layer, forward "
                 "and backward, and across nodes that traffic leaves NVLink. Keep TP within a node and use data or "
                 "pipeline parallelism across nodes.",
             rule::Severity::Warning);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_parallel_degree_vs_heads() {
  return std::make_unique<ParallelDegreeVsHeads>();
}

}  // namespace lint::rules
