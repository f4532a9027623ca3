// LCH010: a multi-node launch that never says where the nodes meet. torchrun's rendezvous endpoint defaults to
// `--master-addr` (127.0.0.1) under the static backend, to localhost under c10d, and `--standalone` pins it to
// localhost:0; accelerate formats `main_process_ip` (None when not set) into it. Every node then waits at home for
// the others until the rendezvous times out. torch 2.11 torch/distributed/run.py:628-630, 778-781, 966;
// accelerate 1.15.0 src/accelerate/utils/launch.py:213-224; oracle cases lch10-* (tools/oracle/lib_cases.json).
// The deepspeed launcher finds the other nodes only in a hostfile: `--num_nodes N>1` without one (the default
// /job/hostfile absent) runs on this machine alone and raises "Num nodes is >1 but no extra nodes available via
// hostfile" (DeepSpeed 0.19.5 deepspeed/launcher/runner.py:466-477; oracle case lch10-ds-num-nodes-no-hostfile).
#include <optional>
#include <set>
#include <string>

#include "lint/model/query.hpp"
#include "rules/launch/launch_support.hpp"

namespace lint::rules {
namespace {

/// The largest node count of a torchrun `--nnodes` value (`2`, `1:4`), when known.
std::optional<std::int64_t> max_nodes(const parse::Word& w) {
  if (!w.known) return std::nullopt;
  const std::string& t = w.text;
  const auto colon = t.find(':');
  parse::Word part = w;
  part.text = colon == std::string::npos ? t : t.substr(colon + 1);
  return parse::int_of(&part);
}

/// Whether a launcher word that is not statically known could carry flags of its own (`$EXTRA_ARGS`): it is not
/// the value of a flag.
bool has_unknown_free_word(const parse::LaunchCommand& c) {
  std::set<std::pair<std::size_t, std::size_t>> values;
  for (const parse::Flag& f : c.flags) {
    if (f.value) values.insert({f.value->region.begin.line, f.value->region.begin.column});
  }
  for (const parse::Word& w : c.launcher_args) {
    if (!w.known && !values.contains({w.region.begin.line, w.region.begin.column})) return true;
  }
  // `torchrun $DIST_ARGS train.py`: the unknown word is taken for the script.
  return c.script && !c.script->known;
}

bool env_has(const parse::LaunchCommand& c, std::string_view name) {
  return c.env.contains(std::string(name));
}

class MultiNodeRendezvousUnset final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::LaunchScript) return;
    for (const parse::LaunchCommand& c : doc.launch_commands) {
      if (c.tool == parse::LaunchTool::DeepSpeed && !has_unknown_free_word(c)) check_deepspeed(doc, c, ctx);
      if (c.tool != parse::LaunchTool::Torchrun || has_unknown_free_word(c)) continue;
      const parse::Flag* nnodes = parse::find_flag(c, "nnodes");
      if (nnodes == nullptr || !nnodes->value) continue;
      const std::optional<std::int64_t> n = max_nodes(*nnodes->value);
      if (!n || *n <= 1) continue;
      // torchrun also reads its flags from PET_* variables.
      if (env_has(c, "PET_RDZV_ENDPOINT") || env_has(c, "PET_MASTER_ADDR") || env_has(c, "PET_STANDALONE")) continue;
      const parse::Flag* standalone = parse::find_flag(c, "standalone");
      const parse::Flag* endpoint = parse::find_flag(c, "rdzv_endpoint");
      const parse::Flag* master = parse::find_flag(c, "master_addr");
      const parse::Flag* backend = parse::find_flag(c, "rdzv_backend");
      std::string where;
      if (standalone != nullptr) {
        where = "`--standalone` pins the rendezvous to localhost:0 on each node";
      } else if (endpoint == nullptr && master == nullptr) {
        const bool c10d =
            backend != nullptr && backend->value && backend->value->known && backend->value->text != "static";
        if (backend != nullptr && (!backend->value || !backend->value->known)) continue;
        where = c10d ? "without `--rdzv-endpoint` the c10d rendezvous is on localhost of each node"
                     : "without `--rdzv-endpoint` or `--master-addr` the static rendezvous is at 127.0.0.1:29500, "
                       "the default `--master-addr`, on each node";
      } else if (endpoint == nullptr && backend != nullptr && backend->value && backend->value->known &&
                 backend->value->text != "static") {
        // `--master-addr` feeds only the static rendezvous (get_rdzv_endpoint): under c10d without an endpoint
        // torch warns "master_addr is only used for static rdzv_backend and when rdzv_endpoint is not specified."
        where =
            "`--master-addr` is read only by the static rendezvous (torch warns \"master_addr is only used for "
            "static rdzv_backend and when rdzv_endpoint is not specified\"), and without `--rdzv-endpoint` the "
            "c10d rendezvous is on localhost of each node";
      } else {
        continue;
      }
      const std::string nodes = nnodes->value->text;
      ctx.report(doc.path(), standalone != nullptr ? standalone->region : nnodes->region,
                 "`torchrun --nnodes " + nodes + "`: " + where +
                     ", so the nodes never meet: each waits for the others on its own machine until the rendezvous "
                     "times out. Pass the first node's address on every node: `--rdzv-backend c10d --rdzv-endpoint "
                     "$HEAD_NODE:29500` (or `--master-addr $MASTER_ADDR --node-rank $NODE_RANK`)" +
                     (standalone != nullptr ? ", and drop `--standalone`, which is for one node." : "."),
                 {rule::RelatedLocation{doc.path(), nnodes->region, "The node count is set here."}});
    }
  }

  static void check_deepspeed(const model::Document& doc, const parse::LaunchCommand& c, rule::RuleContext& ctx) {
    const parse::Flag* nnodes = parse::find_flag(c, "num_nodes");
    if (nnodes == nullptr || !nnodes->value) return;
    const std::optional<std::int64_t> n = parse::int_of(&*nnodes->value);
    if (!n || *n <= 1) return;
    // Any hostfile named, known or not, is the user's list of nodes (LCH009 checks it when it is in the project).
    if (parse::find_flag(c, "hostfile") != nullptr || parse::find_flag(c, "H") != nullptr) return;
    // The runner's --include/--exclude raise first with --num_nodes (LCH009).
    if (parse::find_flag(c, "include") != nullptr || parse::find_flag(c, "exclude") != nullptr) return;
    const std::string nodes = nnodes->value->text;
    ctx.report(doc.path(), nnodes->region,
               "`deepspeed --num_nodes " + nodes +
                   "` without `--hostfile`: the deepspeed launcher finds the other nodes only in a hostfile, the "
                   "default `/job/hostfile` when none is given; without one it takes this machine alone and raises "
                   "\"Num nodes is >1 but no extra nodes available via hostfile\" (DeepSpeed 0.19.5 "
                   "`deepspeed/launcher/runner.py:466-477`). Write a hostfile with one line per node (`node1 "
                   "slots=8`) and pass `--hostfile hostfile` on the first node, which starts the others over ssh.",
               {});
  }

  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.launcher != model::Launcher::AccelerateLaunch || !l.command || has_unknown_free_word(*l.command)) return;
    const model::Effective* nm = l.get(model::keys::kNumMachines);
    if (nm == nullptr || nm->value.kind != model::ValueKind::Int || nm->value.integer <= 1) return;
    const model::Setting* site = nm->decided_by;
    if (site == nullptr || site->origin == model::Origin::Default || site->path.empty()) return;
    // prepare_multi_gpu_env (MULTI_GPU, FSDP); the DeepSpeed launchers take other paths.
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind != model::ValueKind::String || (dt.text != "MULTI_GPU" && dt.text != "FSDP")) return;
    if (parse::find_flag(*l.command, "main_process_ip") != nullptr) return;
    // The config file must be in the launch: accelerate's default config (in the user's cache) may name the IP.
    const model::Document* config = model::query::accelerate_config(l);
    if (config == nullptr || config->root_map() == nullptr) return;
    if (const parse::Node* ip = config->root_map()->find("main_process_ip");
        ip != nullptr &&
        !(ip->kind == parse::NodeKind::Null || (ip->kind == parse::NodeKind::String && ip->text.empty())))
      return;
    const std::string machines = std::to_string(nm->value.integer);
    ctx.report(site->path, site->region,
               "`num_machines: " + machines +
                   "` without `main_process_ip` (in the config or as `--main_process_ip`): accelerate builds the "
                   "rendezvous from it, `None:29500` (accelerate 1.15.0 `src/accelerate/utils/launch.py:213-224`), "
                   "so the " +
                   machines +
                   " machines cannot meet. Set `main_process_ip` to the address of the machine with `machine_rank: "
                   "0`, or pass `--main_process_ip $MASTER_ADDR` on every machine.");
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_multi_node_rendezvous_unset() {
  return std::make_unique<MultiNodeRendezvousUnset>();
}

}  // namespace lint::rules
