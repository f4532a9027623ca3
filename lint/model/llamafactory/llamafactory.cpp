#include "lint/model/llamafactory/llamafactory.hpp"

#include "lint/model/precedence.hpp"

namespace lint::model::llamafactory {

bool looks_like_config(const parse::Node& m) {
  return m.find("model_name_or_path") != nullptr &&
         (m.find("stage") != nullptr || m.find("finetuning_type") != nullptr);
}

void resolve_launch(const BoundInputs& in, Launch& l) {
  const parse::LaunchCommand& cmd = *in.command;
  if (cmd.subcommand != "train") {  // chat, export, eval: no training processes
    decide(l, keys::kWorldSize, std::nullopt, "llamafactory-cli " + cmd.subcommand + " does not train");
    return;
  }
  // llamafactory-cli starts torchrun with NPROC_PER_NODE processes on each of NNODES nodes; without an
  // explicit NPROC_PER_NODE the count is the visible GPUs, unknown here.
  auto np = cmd.env.find("NPROC_PER_NODE");
  auto nn = cmd.env.find("NNODES");
  const auto per = np != cmd.env.end() ? parse::int_of(&np->second) : std::nullopt;
  const auto nodes = nn != cmd.env.end() ? parse::int_of(&nn->second) : std::optional<std::int64_t>(1);
  if (per && nodes) {
    Setting s;
    s.key = std::string(keys::kWorldSize);
    s.value = Value::of_int(*per * *nodes, np->second.region);
    s.path = in.script_doc->path();
    s.region = np->second.region;
    s.origin = Origin::Environment;
    s.spelled = "NPROC_PER_NODE";
    l.add(std::move(s));
  }
  decide(l, keys::kWorldSize, std::nullopt, "NPROC_PER_NODE is not set: all visible GPUs");
}

}  // namespace lint::model::llamafactory
