// ACC005: gpu_ids with fewer than 2 ids under MULTI_GPU on one machine (error), or a count that differs from
// num_processes (warning). `--gpu_ids` on the command line: a count that differs from the processes per machine
// (warning; accelerate checks only the config file's value).
#include "rules/launch/launch_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

std::size_t count_ids(const std::string& text) {
  std::size_t count = 0;
  std::string cur;
  for (char c : text + ",") {
    if (c == ',') {
      if (cur.find_first_not_of(" ") != std::string::npos) ++count;
      cur.clear();
    } else {
      cur += c;
    }
  }
  return count;
}

class GpuIdsMismatch final : public rule::Rule {
 public:
  // `accelerate launch --gpu_ids 0 --multi_gpu --num_processes 2`: accelerate's "Less than two GPU ids" check runs
  // only on a config file's value, so the command line starts (oracle case acc5-cli-one-id: CUDA_VISIBLE_DEVICES=0
  // for 2 processes). The launcher exports the ids as CUDA_VISIBLE_DEVICES (accelerate src/accelerate/utils/launch.py,
  // prepare_multi_gpu_env) and starts num_processes // num_machines processes on each machine.
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch || !l.command || l.command_document == nullptr) return;
    const parse::Flag* flag = parse::find_flag(*l.command, "gpu_ids");
    if (flag == nullptr || !flag->value || !flag->value->known || flag->value->text == "all") return;
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind != model::ValueKind::String || dt.text == "NO") return;
    const model::Effective* np = l.get(model::keys::kNumProcesses);
    const model::Effective* nm = l.get(model::keys::kNumMachines);
    if (np == nullptr || np->value.kind != model::ValueKind::Int || np->value.integer <= 0) return;
    std::int64_t machines = 1;
    if (nm != nullptr) {
      if (nm->value.kind != model::ValueKind::Int || nm->value.integer <= 0) return;
      machines = nm->value.integer;
    }
    if (np->value.integer % machines != 0) return;  // LCH005 reports the split
    const std::int64_t per = np->value.integer / machines;
    const std::size_t count = count_ids(flag->value->text);
    if (count == 0 || static_cast<std::size_t>(per) == count) return;
    ctx.report(l.command_document->path(), flag->region,
               "`--gpu_ids " + flag->value->text + "` lists " + std::to_string(count) + " GPU" +
                   (count == 1 ? "" : "s") + " for " + std::to_string(per) + " process" + (per == 1 ? "" : "es") +
                   " per machine: accelerate exports it as CUDA_VISIBLE_DEVICES and starts the processes anyway " +
                   "(it checks the id count only for a config file's `gpu_ids`), so " +
                   (static_cast<std::size_t>(per) > count ? "processes share a GPU" : "listed GPUs stay idle") +
                   ". Make the counts agree.",
               related_to(np->decided_by, "num_processes is set here"), rule::Severity::Warning);
  }

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
      count = count_ids(ids->text);
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
