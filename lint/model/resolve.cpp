#include "lint/model/resolve.hpp"

#include <set>
#include <string>

#include "lint/model/accelerate/launcher.hpp"
#include "lint/model/accelerate/schema.hpp"
#include "lint/model/axolotl/axolotl.hpp"
#include "lint/model/deepspeed/deepspeed.hpp"
#include "lint/model/llamafactory/llamafactory.hpp"
#include "lint/model/precedence.hpp"
#include "lint/model/script.hpp"
#include "lint/model/torch/torch.hpp"
#include "lint/model/torchtitan/torchtitan.hpp"

namespace lint::model {

using parse::LaunchCommand;
using parse::LaunchTool;

Value value_of(const parse::Node& node) {
  Value v;
  v.region = node.region;
  switch (node.kind) {
    case parse::NodeKind::Null:
      v.kind = ValueKind::None;
      break;
    case parse::NodeKind::Bool:
      v.kind = ValueKind::Bool;
      v.boolean = node.boolean;
      v.text = node.text;
      break;
    case parse::NodeKind::Int:
      v.kind = ValueKind::Int;
      v.integer = node.integer;
      v.number = node.number;
      v.text = node.text;
      break;
    case parse::NodeKind::Float:
      v.kind = ValueKind::Float;
      v.number = node.number;
      v.text = node.text;
      break;
    case parse::NodeKind::String:
      v.kind = ValueKind::String;
      v.text = node.text;
      break;
    case parse::NodeKind::Sequence:
      v.kind = ValueKind::List;
      for (const parse::Node& it : node.items) v.items.push_back(value_of(it));
      break;
    case parse::NodeKind::Mapping:
      v.kind = ValueKind::Dict;
      for (const parse::Entry& e : node.entries) v.fields.emplace_back(e.key.text, value_of(e.value));
      break;
  }
  return v;
}

Value normalise_fsdp_value(std::string_view prefixed_key, const Value& written) {
  return accelerate::normalise_value(prefixed_key, written);
}

Launch resolve_file(const Document& doc) {
  Launch l;
  l.name = doc.path();
  l.documents.push_back(&doc);
  l.per_file = true;
  switch (doc.kind) {
    case DocKind::AccelerateConfig:
      l.launcher = Launcher::AccelerateLaunch;
      accelerate::resolve_config_alone(doc, l);
      break;
    case DocKind::PythonScript:
      resolve_script_alone(doc, l);
      break;
    case DocKind::TorchtitanConfig:
      l.launcher = Launcher::Torchtitan;
      torchtitan::collect_config(doc, l);
      break;
    case DocKind::AxolotlConfig:
      axolotl::collect_config(doc, l);
      break;
    default:
      break;
  }
  return l;
}

bool single_process_command(const parse::LaunchCommand& cmd) {
  std::optional<std::int64_t> ws;
  if (cmd.tool == LaunchTool::Python) {
    if (cmd.spawner.empty()) ws = 1;
  } else if (cmd.tool == LaunchTool::Torchrun) {
    ws = torch::torchrun_world_size(cmd);
  } else if (cmd.tool == LaunchTool::DeepSpeed) {
    ws = deepspeed::launcher_world_size(cmd);
  }
  return ws == std::optional<std::int64_t>(1);
}

void count_binding_launches(const std::vector<BoundInputs>& bound) {
  for (const BoundInputs& in : bound) {
    if (in.command == nullptr) continue;
    const bool single = single_process_command(*in.command);
    std::set<const Document*> seen;
    for (const Document* d : {in.accelerate_config, in.python, in.trainer_fsdp_config, in.deepspeed, in.torchtitan,
                              in.axolotl, in.llamafactory, in.trainer_args}) {
      if (d == nullptr || !seen.insert(d).second) continue;
      // Binding runs on one thread and the counts are written before any launch is resolved or read.
      auto* m = const_cast<Document*>(d);
      ++m->bound_launches;
      if (single) ++m->bound_single_process_launches;
    }
  }
}

Launch resolve_bound(const BoundInputs& in) {
  Launch l;
  const LaunchCommand& cmd = *in.command;
  l.per_file = false;
  l.command_document = in.script_doc;
  l.command_workdir = in.workdir;
  l.command_region = cmd.region;
  l.command = cmd;
  l.hostfile = in.hostfile;
  l.imported_modules = in.imported;
  l.name = in.script_doc->path() + ":" + std::to_string(cmd.region.begin.line);
  for (const Document* d : {in.script_doc, in.accelerate_config, in.python, in.trainer_fsdp_config, in.deepspeed,
                            in.torchtitan, in.axolotl, in.llamafactory, in.trainer_args}) {
    if (d != nullptr) l.documents.push_back(d);
  }
  switch (cmd.tool) {
    case LaunchTool::AccelerateLaunch:
      accelerate::resolve_launch(in, l);
      break;
    case LaunchTool::Torchrun:
    case LaunchTool::Python:
    case LaunchTool::DeepSpeed:
      torch::resolve_launch(in, l);
      break;
    case LaunchTool::TorchtitanRunTrain:
      torchtitan::resolve_launch(in, l);
      break;
    case LaunchTool::Axolotl:
      if (in.axolotl != nullptr) axolotl::collect_config(*in.axolotl, l);
      break;
    case LaunchTool::LlamaFactory:
      llamafactory::resolve_launch(in, l);
      break;
  }
  // Checkpointing switches of the script.
  for (std::string_view key : {keys::kGradientCheckpointing, keys::kModelGradientCheckpointing,
                               keys::kApplyActivationCheckpointing, keys::kLightningAcPolicy}) {
    if (l.get(key) == nullptr) decide(l, key, std::nullopt, "not set");
  }
  return l;
}

}  // namespace lint::model
