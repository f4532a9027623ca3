#include "lint/model/torch/torch.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "lint/model/accelerate/launcher.hpp"
#include "lint/model/accelerate/schema.hpp"
#include "lint/model/collect.hpp"
#include "lint/model/deepspeed/deepspeed.hpp"
#include "lint/model/script.hpp"
#include "lint/model/torchtitan/torchtitan.hpp"

namespace lint::model::torch {

using parse::find_flag;
using parse::Flag;
using parse::int_of;
using parse::LaunchCommand;
using parse::LaunchTool;
using parse::Word;

namespace {

Value enum_or_string_strategy(const Value& v) {
  if (v.kind == ValueKind::Enum || v.kind == ValueKind::String) {
    if (auto s = accelerate::parse_strategy(v.text)) {
      Value out = Value::of_string(std::string(*s), v.region);
      return out;
    }
    return v;
  }
  if (v.kind == ValueKind::Int) {
    if (auto s = accelerate::parse_strategy(v.text)) return Value::of_string(std::string(*s), v.region);
  }
  return v;
}

}  // namespace

bool is_torch_fsdp_call(const PyCall& c) {
  return c.callee == c.name || c.callee.starts_with("torch.");
}

std::vector<const PyCall*> torch_fsdp_calls(const PythonFacts& py, std::string_view name) {
  std::vector<const PyCall*> out = py.calls_named(name);
  std::erase_if(out, [](const PyCall* c) { return !is_torch_fsdp_call(*c); });
  return out;
}

/// Torch's FullyShardedDataParallel(...) (FSDP1) and fully_shard(...) (FSDP2), Lightning's FSDPStrategy(...).
void collect_calls(const Document& doc, const PythonFacts& py, Launch& l) {
  const auto fsdp1 = torch_fsdp_calls(py, "FullyShardedDataParallel");
  const auto fsdp2 = torch_fsdp_calls(py, "fully_shard");
  const auto lightning = py.calls_named("FSDPStrategy");
  for (const PyCall* c : fsdp1) {
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, c->callee_region), Value::of_bool(true), doc,
                       c->callee_region, Origin::TorchCall, c->name + "(...)"));
    l.add(make_setting(keys::kFsdpVersion, Value::of_int(1, c->callee_region), Value::of_int(1), doc, c->callee_region,
                       Origin::TorchCall, c->name + "(...)"));
    if (const PyArg* a = c->keyword("sharding_strategy"))
      add_call_setting(l, doc, *c, *a, keys::kShardingStrategy, enum_or_string_strategy(a->value), Origin::TorchCall);
    else if (!c->has_unresolved_unpacking)
      l.add(call_default_setting(keys::kShardingStrategy, Value::of_string("FULL_SHARD", c->callee_region), doc,
                                 c->callee_region, Origin::TorchCall, c->name));
  }
  for (const PyCall* c : lightning) {
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, c->callee_region), Value::of_bool(true), doc,
                       c->callee_region, Origin::LightningStrategy, c->name + "(...)"));
    l.add(make_setting(keys::kFsdpVersion, Value::of_int(1, c->callee_region), Value::of_int(1), doc, c->callee_region,
                       Origin::LightningStrategy, c->name + "(...)"));
    if (const PyArg* a = c->keyword("sharding_strategy")) {
      Value v = a->value;
      // Lightning resolves strings with ShardingStrategy[s.upper()]: the ZeRO-2 hybrid member is _HYBRID_SHARD_ZERO2.
      if (v.kind == ValueKind::String) {
        const std::string up = upper(v.text);
        static constexpr std::array<std::string_view, 5> kMembers = {"FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD",
                                                                     "HYBRID_SHARD", "_HYBRID_SHARD_ZERO2"};
        if (std::find(kMembers.begin(), kMembers.end(), up) != kMembers.end())
          v = Value::of_string(up == "_HYBRID_SHARD_ZERO2" ? "HYBRID_SHARD_ZERO2" : up, v.region);
      } else {
        v = enum_or_string_strategy(v);
      }
      add_call_setting(l, doc, *c, *a, keys::kShardingStrategy, v, Origin::LightningStrategy);
    } else if (!c->has_unresolved_unpacking) {
      l.add(call_default_setting(keys::kShardingStrategy, Value::of_string("FULL_SHARD", c->callee_region), doc,
                                 c->callee_region, Origin::LightningStrategy, c->name));
    }
    const PyArg* policy = c->keyword("activation_checkpointing_policy");
    if (policy == nullptr) policy = c->keyword("activation_checkpointing");
    if (policy != nullptr) {
      Value on = policy->value.kind == ValueKind::None ? Value::of_bool(false, policy->region)
                                                       : Value::of_bool(true, policy->region);
      if (policy->value.kind == ValueKind::Unknown) on = Value::unknown(policy->region);
      add_call_setting(l, doc, *c, *policy, keys::kLightningAcPolicy, on, Origin::LightningStrategy);
    }
  }
  if (!fsdp2.empty()) {
    // fully_shard is applied bottom-up, so with several calls the last is the root and the others wrap the layers
    // that hold most parameters (the per-layer pattern). The layers decide whether parameters stay gathered between
    // forward and backward: one per-layer call with reshard_after_forward=False keeps its layers gathered, while a
    // root kept unsharded alone (a common choice, its parameters are used first in backward) does not.
    std::vector<const PyCall*> calls(fsdp2.begin(), fsdp2.end());
    std::sort(calls.begin(), calls.end(), [](const PyCall* a, const PyCall* b) { return a->order < b->order; });
    const std::vector<const PyCall*> layers =
        calls.size() == 1 ? calls : std::vector<const PyCall*>(calls.begin(), calls.end() - 1);
    const PyCall* first = calls.front();
    const PyCall* site = nullptr;  // the call that decides
    std::optional<bool> reshard = true;
    for (const PyCall* c : layers) {
      const PyArg* a = c->keyword("reshard_after_forward");
      if (a == nullptr) {
        if (c->has_unresolved_unpacking && reshard == true) reshard = std::nullopt;
        continue;
      }
      if (a->value.kind != ValueKind::Bool) {
        if (reshard == true) {
          reshard = std::nullopt;
          site = c;
        }
        continue;
      }
      if (!a->value.boolean) {
        reshard = false;
        site = c;
        break;
      }
      if (site == nullptr) site = c;
    }
    if (site == nullptr) site = first;
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, first->callee_region), Value::of_bool(true), doc,
                       first->callee_region, Origin::TorchCall, "fully_shard(...)"));
    l.add(make_setting(keys::kFsdpVersion, Value::of_int(2, first->callee_region), Value::of_int(2), doc,
                       first->callee_region, Origin::TorchCall, "fully_shard(...)"));
    const PyArg* a = site->keyword("reshard_after_forward");
    Value v = reshard ? Value::of_bool(*reshard) : Value::unknown();
    v.region = a != nullptr ? a->region : site->callee_region;
    l.add(make_setting(keys::kReshardAfterForward, v, a != nullptr ? a->value : Value{}, doc, v.region,
                       Origin::TorchCall, "fully_shard(reshard_after_forward=)"));
  }
}

/// Calls that turn activation checkpointing on in the script itself.
void collect_checkpointing_calls(const Document& doc, const PythonFacts& py, Launch& l) {
  for (const PyCall& c : py.calls) {
    if (c.name == "gradient_checkpointing_enable") {
      l.add(make_setting(keys::kModelGradientCheckpointing, Value::of_bool(true, c.region), Value{}, doc, c.region,
                         Origin::ScriptCall, c.callee + "()"));
    } else if (c.name == "prepare_model_for_kbit_training") {
      // peft enables gradient checkpointing here unless use_gradient_checkpointing=False.
      const PyArg* a = c.keyword("use_gradient_checkpointing");
      Value v = Value::of_bool(true, c.region);
      if (a != nullptr) v = a->value.kind == ValueKind::Bool ? a->value : Value::unknown(a->region);
      v.region = a != nullptr ? a->region : c.region;
      l.add(make_setting(keys::kModelGradientCheckpointing, v, Value{}, doc, v.region, Origin::ScriptCall,
                         c.callee + "()"));
    } else if (c.name == "apply_activation_checkpointing" || c.name == "checkpoint_wrapper" ||
               c.name == "checkpoint_sequential" ||
               (c.name == "checkpoint" && c.callee.find("checkpoint.checkpoint") != std::string::npos)) {
      l.add(make_setting(keys::kApplyActivationCheckpointing, Value::of_bool(true, c.region), Value{}, doc, c.region,
                         Origin::ScriptCall, c.callee + "()"));
    }
  }
  for (const PyAttributeAssignment& a : py.attribute_assignments) {
    if (a.attribute == "gradient_checkpointing" && a.target.find("args") == std::string::npos) {
      Value v = a.value.kind == ValueKind::Bool ? a.value : Value::unknown(a.region);
      v.region = a.region;
      l.add(make_setting(keys::kModelGradientCheckpointing, v, a.value, doc, a.region, Origin::ScriptCall, a.target));
    } else if (a.attribute == "gradient_checkpointing") {
      Value v = a.value.kind == ValueKind::Bool ? a.value : Value::unknown(a.region);
      v.region = a.region;
      l.add(make_setting(keys::kGradientCheckpointing, v, a.value, doc, a.region, Origin::TrainingArguments, a.target));
    }
  }
}

std::optional<std::int64_t> torchrun_world_size(const LaunchCommand& cmd) {
  if (cmd.opaque_launcher_args) return std::nullopt;  // `torchrun $ARGS x.py`: the counts may be in $ARGS
  const Flag* n = find_flag(cmd, "nproc_per_node");
  const Flag* m = find_flag(cmd, "nnodes");
  const auto per = n != nullptr && n->value ? int_of(&*n->value) : std::optional<std::int64_t>(1);
  const auto nodes = m != nullptr && m->value ? int_of(&*m->value) : std::optional<std::int64_t>(1);
  if (per && nodes) return *per * *nodes;
  return std::nullopt;
}

void resolve_launch(const BoundInputs& in, Launch& l) {
  const LaunchCommand& cmd = *in.command;
  l.launcher = cmd.tool == LaunchTool::Torchrun ? Launcher::Torchrun
               : cmd.tool == LaunchTool::Python ? Launcher::Python
                                                : Launcher::DeepSpeed;
  accelerate::collect_environment(*in.script_doc, cmd, l, false);
  collect_script(in, l);
  // `torchrun ... -m torchtitan.train --job.config_file x.toml`: torchtitan's trainer reads the TOML.
  if (in.torchtitan != nullptr) {
    l.launcher = Launcher::Torchtitan;
    torchtitan::collect_config(*in.torchtitan, l);
  }
  std::optional<std::int64_t> ws;
  if (cmd.tool == LaunchTool::Python) {
    // `srun --ntasks=N python train.py` / `mpirun -np N python ...` start N copies: the count is theirs.
    if (cmd.spawner.empty()) ws = 1;
  } else if (cmd.tool == LaunchTool::Torchrun) {
    ws = torchrun_world_size(cmd);
  } else {
    ws = deepspeed::launcher_world_size(cmd);
  }
  if (ws) {
    Setting s;
    s.key = std::string(keys::kWorldSize);
    s.value = Value::of_int(*ws, cmd.region);
    s.path = in.script_doc->path();
    s.region = cmd.region;
    s.origin = Origin::LaunchFlag;
    s.spelled = std::string(to_string(cmd.tool));
    l.add(std::move(s));
  }
  decide(l, keys::kWorldSize, std::nullopt, "the launcher's process count is not known");
  // Without accelerate's launcher, FSDP is on only with a plugin, the Trainer's fsdp, or
  // ACCELERATE_USE_FSDP=true (accelerator.py:387-396).
  std::optional<Setting> off;
  if (in.python != nullptr)
    off = default_setting(keys::kFsdpEnabled, Value::of_bool(false), SourceKind::LibraryDefault,
                          "FSDP is off without a plugin, Trainer fsdp or ACCELERATE_USE_FSDP=true");
  decide(l, keys::kFsdpEnabled, std::move(off), "the script is not known");
  if (l.fsdp_enabled()) {
    Setting dt = *l.get(keys::kFsdpEnabled)->decided_by;
    dt.key = std::string(keys::kDistributedType);
    dt.value = Value::of_string("FSDP", dt.region);
    l.add(std::move(dt));
  } else if (const auto ws = l.world_size(); ws && l.value(keys::kFsdpEnabled).kind == ValueKind::Bool) {
    l.add(default_setting(keys::kDistributedType, Value::of_string(*ws > 1 ? "MULTI_GPU" : "NO"),
                          SourceKind::LibraryDefault, "Accelerator's state from the process count"));
  }
  decide(l, keys::kDistributedType, std::nullopt, "not known");
  if (auto it = cmd.env.find("ACCELERATE_MIXED_PRECISION"); it != cmd.env.end() && it->second.known) {
    l.add(make_setting(keys::kMixedPrecision, Value::of_string(it->second.text, it->second.region),
                       Value::of_string(it->second.text), *in.script_doc, it->second.region, Origin::Environment,
                       "ACCELERATE_MIXED_PRECISION"));
  }
  decide(l, keys::kMixedPrecision,
         default_setting(keys::kMixedPrecision, Value::of_string("no"), SourceKind::LibraryDefault,
                         "Accelerator default"));
  accelerate::decide_fsdp(l, false);
  accelerate::mark_unread(l);
}

}  // namespace lint::model::torch
