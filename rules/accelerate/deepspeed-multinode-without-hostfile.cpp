// ACC016: `accelerate launch` with DeepSpeed on more than one machine, a multi-node launcher other than `standard`
// (pdsh when none is given) and no `deepspeed_hostfile`. accelerate then starts the `deepspeed` launcher with
// `--hostfile None` (accelerate src/accelerate/utils/launch.py:446-453, the hostfile argument defaults to None at
// src/accelerate/commands/launch.py:479-484); DeepSpeed's runner finds no such file, warns "Unable to find hostfile,
// will proceed with training with local resources only", takes the local GPUs as the whole job and sets the master
// address to 127.0.0.1 (DeepSpeed 38327e07f deepspeed/launcher/runner.py:213-216, 446-453). Each node that runs the
// command trains alone: accelerate#1867 and accelerate#1795 (world size 8 instead of 16).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// A `deepspeed_config:` entry of the accelerate config, or nullptr.
const parse::Entry* section_entry(const model::Document* config, std::string_view key) {
  if (config == nullptr) return nullptr;
  const parse::Node* root = config->root_map();
  if (root == nullptr) return nullptr;
  const parse::Node* section = root->find("deepspeed_config");
  if (section == nullptr || !section->is_map()) return nullptr;
  return section->find_entry(key);
}

/// The setting as accelerate sees it: the command-line flag over the config's `deepspeed_config` entry
/// (launch.py:1259-1275 copies the section only onto arguments left unset). nullopt: not given; "" with known=false:
/// given but not statically known.
struct Given {
  std::string text;
  bool known = true;
};

std::optional<Given> given(const model::Launch& l, const model::Document* config, std::string_view key) {
  if (l.command) {
    if (const parse::Flag* f = parse::find_flag(*l.command, key)) {
      if (!f->value) return Given{"", false};
      return Given{f->value->text, f->value->known};
    }
  }
  if (const parse::Entry* e = section_entry(config, key)) {
    if (e->value.kind == parse::NodeKind::Null) return std::nullopt;
    if (e->value.kind != parse::NodeKind::String) return Given{"", false};
    return Given{e->value.text, true};
  }
  return std::nullopt;
}

class DeepspeedMultinodeWithoutHostfile final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch) return;
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind != model::ValueKind::String || dt.text != "DEEPSPEED") return;
    const model::Effective* nm = l.get(model::keys::kNumMachines);
    if (nm == nullptr || nm->value.kind != model::ValueKind::Int || nm->value.integer <= 1) return;
    const model::Setting* site = nm->decided_by;
    if (site == nullptr || site->origin == model::Origin::Default || site->path.empty()) return;
    if (l.command && parse::find_flag(*l.command, "cpu") != nullptr) return;

    const model::Document* config = accelerate_config(l);
    const std::optional<Given> launcher = given(l, config, "deepspeed_multinode_launcher");
    if (launcher && (!launcher->known || launcher->text == "standard")) return;
    // Any hostfile given, even one this launch cannot read, is the user's answer: silent.
    if (given(l, config, "deepspeed_hostfile")) return;

    const std::string which = launcher ? "the `" + launcher->text + "`" : "the default `pdsh`";
    const std::string machines = std::to_string(nm->value.integer);
    std::vector<rule::RelatedLocation> related;
    if (l.command && l.command_document != nullptr) {
      if (const parse::Flag* f = parse::find_flag(*l.command, "deepspeed_multinode_launcher"))
        related.push_back({l.command_document->path(), f->region, "The multi-node launcher is chosen here."});
    }
    if (related.empty()) {
      if (const parse::Entry* e = section_entry(config, "deepspeed_multinode_launcher"))
        related.push_back({config->path(), e->key.region, "The multi-node launcher is chosen here."});
    }
    ctx.report(site->path, site->region,
               "DeepSpeed on " + machines + " machines with " + which +
                   " multi-node launcher and no `deepspeed_hostfile`: `accelerate launch` starts the `deepspeed` "
                   "launcher with `--hostfile None` (accelerate src/accelerate/utils/launch.py:446-453), which finds "
                   "no hostfile, \"will proceed with training with local resources only\" and uses 127.0.0.1 as the "
                   "master address (DeepSpeed 38327e07f deepspeed/launcher/runner.py:213-216, 446-453): each node that "
                   "runs the command trains alone on its own GPUs. Name a hostfile listing every node "
                   "(`deepspeed_hostfile`) and start the launch once, on the main node, or set "
                   "`deepspeed_multinode_launcher: standard` and run the command on every node with its "
                   "`machine_rank`.",
               std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_multinode_without_hostfile() {
  return std::make_unique<DeepspeedMultinodeWithoutHostfile>();
}

}  // namespace lint::rules
