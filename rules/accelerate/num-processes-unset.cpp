// ACC004: num_processes: -1 (accelerate's placeholder): `accelerate launch` raises.
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class NumProcessesUnset final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    const parse::Node* n = root != nullptr ? root->find("num_processes") : nullptr;
    if (n == nullptr || n->kind != parse::NodeKind::Int || n->integer != -1) return;
    ctx.report(doc.path(), n->region,
               "`num_processes: -1` makes `accelerate launch` raise \"You need to manually pass in "
               "--num_processes\": set the total number of processes (GPUs across all machines).");
  }

  /// A config without num_processes (stored as -1) launched without --num_processes fails the same way.
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file || l.launcher != model::Launcher::AccelerateLaunch) return;
    const model::Document* cfg = accelerate_config(l);
    if (cfg == nullptr || cfg->root_map() == nullptr || !l.assignments(model::keys::kNumProcesses).empty()) return;
    const parse::Entry* dt = cfg->root_map()->find_entry("distributed_type");
    if (dt == nullptr) return;
    // Unquoted NO (PyYAML False) and 'NO' default num_processes to 1 (config_args.py:111-112).
    if (dt->value.kind == parse::NodeKind::Bool || (dt->value.kind == parse::NodeKind::String && dt->value.text == "NO"))
      return;
    std::vector<rule::RelatedLocation> rel;
    if (l.command_document != nullptr)
      rel.push_back({l.command_document->path(), l.command_region, "Launched here without --num_processes."});
    ctx.report(cfg->path(), dt->key.region,
               "This config has no `num_processes` and the launch command passes no `--num_processes`: accelerate "
               "stores -1 and `accelerate launch` raises \"You need to manually pass in --num_processes\". Add "
               "`num_processes:` (the total number of processes) to the config.",
               std::move(rel));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_num_processes_unset() { return std::make_unique<NumProcessesUnset>(); }

}  // namespace lint::rules
