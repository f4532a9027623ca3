// FSDP007: `accelerate launch` raises when fsdp_cpu_ram_efficient_loading is truthy and fsdp_sync_module_states is
// falsy, both tested with Python truthiness on the raw config values (utils/launch.py:306-307).
#include <algorithm>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::accelerate::launcher_entry;

/// Python truthiness of a raw config value.
bool truthy(const parse::Node& n) {
  switch (n.kind) {
    case parse::NodeKind::Null:
      return false;
    case parse::NodeKind::Bool:
      return n.boolean;
    case parse::NodeKind::Int:
      return n.integer != 0;
    case parse::NodeKind::Float:
      return n.number != 0.0;
    case parse::NodeKind::String:
      return !n.text.empty();
    case parse::NodeKind::Sequence:
      return !n.items.empty();
    case parse::NodeKind::Mapping:
      return !n.entries.empty();
  }
  return true;
}

/// A scalar as written (`no` rather than the bool it loads as), strings quoted.
std::string as_written(const parse::Node& n) {
  if (n.kind == parse::NodeKind::String || n.text.empty()) return n.display();
  return n.text;
}

/// An explicit `accelerate launch --fsdp_x` flag (a string: truthy unless empty) that beat the config file.
const model::Setting* launch_flag(const model::Launch& l, std::string_view key) {
  const model::Setting* s = written_site(l, key);
  return s != nullptr && s->origin == model::Origin::LaunchFlag ? s : nullptr;
}

class CpuRamEfficientLoadingWithoutSync final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch || !l.fsdp_enabled()) return;
    const model::Document* cfg = accelerate_config(l);
    const parse::Node* root = cfg != nullptr ? cfg->root_map() : nullptr;
    const parse::Node* fsdp = root != nullptr ? root->find("fsdp_config") : nullptr;
    if (fsdp == nullptr || !fsdp->is_map()) return;

    // fsdp_sync_module_states: only a falsy value written in the file fails (a flag is a non-empty string).
    if (launch_flag(l, model::keys::kSyncModuleStates) != nullptr) return;
    const parse::Entry* sync = launcher_entry(*fsdp, "fsdp_sync_module_states");
    if (sync == nullptr || truthy(sync->value)) return;

    // fsdp_cpu_ram_efficient_loading: absent means the flag default, the string "true".
    std::string why_on;
    std::vector<rule::RelatedLocation> related;
    if (const model::Setting* flag = launch_flag(l, model::keys::kCpuRamEfficientLoading)) {
      if (flag->written.kind == model::ValueKind::String && flag->written.text.empty()) return;
      why_on =
          "`" + flag->spelled + "` is given on the command line, and any non-empty flag value counts as true there";
      related = related_to(flag, "fsdp_cpu_ram_efficient_loading is set here");
    } else if (const parse::Entry* cre = launcher_entry(*fsdp, "fsdp_cpu_ram_efficient_loading")) {
      if (!truthy(cre->value)) return;
      why_on = "`" + cre->key.text + ": " + as_written(cre->value) + "` is truthy";
      if (cre->value.kind == parse::NodeKind::String)
        why_on += " (a non-empty string, whatever it says, is true for this check)";
      related = {rule::RelatedLocation{cfg->path(), cre->value.region, "fsdp_cpu_ram_efficient_loading is set here"}};
    } else {
      why_on = "`fsdp_cpu_ram_efficient_loading` is not set, and its `accelerate launch` default is \"true\"";
    }

    std::string message =
        "`accelerate launch` stops with ValueError \"When using `--fsdp_cpu_ram_efficient_loading` set "
        "`--fsdp_sync_module_states` to `True`\": `" +
        sync->key.text + ": " + as_written(sync->value) + "` is falsy while " + why_on + ". ";
    if (l.fsdp_version() == 2) {
      message +=
          "FSDP2 never reads `fsdp_sync_module_states`, but the launcher checks it anyway: remove the key or "
          "set it to true.";
    } else {
      message +=
          "Set `fsdp_sync_module_states: true`, or `fsdp_cpu_ram_efficient_loading: false` (then every rank "
          "loads the pretrained weights itself instead of rank 0 only).";
    }
    ctx.report(cfg->path(), sync->value.region, std::move(message), std::move(related), std::nullopt,
               std::string(model::keys::kSyncModuleStates));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_cpu_ram_efficient_loading_without_sync() {
  return std::make_unique<CpuRamEfficientLoadingWithoutSync>();
}

}  // namespace lint::rules
