// ACC005: gpu_ids with fewer than 2 ids under MULTI_GPU on one machine (error), or a count that differs from
// num_processes (warning).
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class GpuIdsMismatch final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    const parse::Node* ids = root != nullptr ? root->find("gpu_ids") : nullptr;
    if (ids == nullptr || ids->kind == parse::NodeKind::Null) return;
    if (ids->kind == parse::NodeKind::String && ids->text == "all") return;
    std::size_t count = 0;
    if (ids->kind == parse::NodeKind::Int) {
      count = 1;
    } else if (ids->kind == parse::NodeKind::String) {
      std::string cur;
      for (char c : ids->text + ",") {
        if (c == ',') {
          if (cur.find_first_not_of(" ") != std::string::npos) ++count;
          cur.clear();
        } else {
          cur += c;
        }
      }
    } else {
      return;
    }
    const parse::Node* dt = root->find("distributed_type");
    const parse::Node* machines = root->find("num_machines");
    const bool one_machine = machines == nullptr || (machines->kind == parse::NodeKind::Int && machines->integer == 1);
    if (dt != nullptr && dt->kind == parse::NodeKind::String && dt->text == "MULTI_GPU" && one_machine && count < 2) {
      ctx.report(doc.path(), ids->region,
                 "`gpu_ids` lists " + std::to_string(count) +
                     " GPU with `distributed_type: MULTI_GPU` on one machine: `accelerate launch` raises ValueError. "
                     "List at least two ids, or use `distributed_type: 'NO'`.");
      return;
    }
    const parse::Node* np = root->find("num_processes");
    // Several machines: gpu_ids lists the GPUs of each machine, which runs num_processes // num_machines processes
    // (accelerate v1.14.0 src/accelerate/utils/launch.py:216-218).
    if (np != nullptr && np->kind == parse::NodeKind::Int && np->integer > 0 && machines != nullptr &&
        machines->kind == parse::NodeKind::Int && machines->integer > 1 && np->integer % machines->integer == 0) {
      const std::int64_t per = np->integer / machines->integer;
      if (static_cast<std::size_t>(per) != count) {
        ctx.report(doc.path(), ids->region,
                   "`gpu_ids` lists " + std::to_string(count) + " GPUs, but each of the " +
                       std::to_string(machines->integer) + " machines runs num_processes / num_machines = " +
                       std::to_string(per) + " processes (`num_processes` is the total over all machines): each "
                       "process needs its own GPU; make the counts agree.",
                   {rule::RelatedLocation{doc.path(), np->region, "num_processes is set here."}},
                   rule::Severity::Warning);
      }
      return;
    }
    if (np != nullptr && np->kind == parse::NodeKind::Int && np->integer > 0 && one_machine &&
        static_cast<std::size_t>(np->integer) != count) {
      ctx.report(doc.path(), ids->region,
                 "`gpu_ids` lists " + std::to_string(count) + " GPUs but `num_processes` is " +
                     std::to_string(np->integer) + ": each process needs its own GPU; make the counts agree.",
                 {rule::RelatedLocation{doc.path(), np->region, "num_processes is set here."}},
                 rule::Severity::Warning);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_gpu_ids_mismatch() { return std::make_unique<GpuIdsMismatch>(); }

}  // namespace lint::rules
