#include "lint/model/accelerate/launcher.hpp"

#include <array>
#include <map>
#include <string>

#include "lint/model/accelerate/schema.hpp"
#include "lint/model/axolotl/axolotl.hpp"
#include "lint/model/collect.hpp"
#include "lint/model/script.hpp"
#include "lint/model/versions.hpp"

namespace lint::model::accelerate {

using parse::Flag;
using parse::int_of;
using parse::LaunchCommand;
using parse::Word;

void collect_config(const Document& doc, Launch& l, bool fsdp_section_read) {
  const parse::Node* root = doc.root_map();
  if (root == nullptr) return;
  for (const parse::Entry& e : root->entries) {
    const std::string& k = e.key.text;
    const Value written = value_of(e.value);
    if (k == "distributed_type") {
      Value v = written;
      // Unquoted NO is PyYAML's False; accelerate's launcher then runs non-distributed, as the user meant.
      if (v.kind == ValueKind::Bool && !v.boolean) v = Value::of_string("NO", v.region);
      l.add(make_setting(keys::kDistributedType, v, written, doc, e.value.region, Origin::ConfigFile, k));
    } else if (k == "num_processes" || k == "num_machines") {
      l.add(make_setting(k == "num_processes" ? keys::kNumProcesses : keys::kNumMachines, written, written, doc,
                         e.value.region, Origin::ConfigFile, k));
    } else if (k == "mixed_precision") {
      l.add(make_setting(keys::kMixedPrecision, written, written, doc, e.value.region, Origin::ConfigFile, k));
    } else if (k == "fp16" && root->find("mixed_precision") == nullptr && truth_of(written).value_or(false)) {
      // Legacy key rewritten to mixed_precision: fp16 before validation (config_args.py:113-116, oracle case p1-Z3).
      l.add(make_setting(keys::kMixedPrecision, Value::of_string("fp16", e.value.region), written, doc, e.value.region,
                         Origin::ConfigFile, k));
    } else if (k == "fsdp_config" && e.value.is_map() && fsdp_section_read) {
      for (const parse::Entry& f : e.value.entries) {
        std::string prefixed = fsdp_config_key(f.key.text);
        // Before accelerate 1.0 the launcher still read the old name and passed it on as fsdp_backward_prefetch
        // (with a FutureWarning); from 1.0 it is dead (commit 79a84264; ACC008).
        if (prefixed == "fsdp_backward_prefetch_policy" && target_versions().before("accelerate", Version{1, 0, 0}) &&
            e.value.find("fsdp_backward_prefetch") == nullptr && e.value.find("backward_prefetch") == nullptr)
          prefixed = "fsdp_backward_prefetch";
        const FsdpKey* info = find_fsdp_key(prefixed);
        if (info == nullptr) continue;
        const Value fw = value_of(f.value);
        l.add(make_setting(info->canonical, normalise_value(prefixed, fw), fw, doc, f.value.region, Origin::ConfigFile,
                           "fsdp_config." + f.key.text));
      }
    }
  }
}

void collect_plugin(const Document& doc, const PythonFacts& py, Launch& l) {
  for (const PyCall* c : py.calls_named("FullyShardedDataParallelPlugin")) {
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, c->callee_region), Value::of_bool(true), doc,
                       c->callee_region, Origin::PluginObject, c->name + "(...)"));
    for (const PluginField& f : plugin_fields()) {
      const PyArg* a = c->keyword(f.kwarg);
      if (a == nullptr || a->value.kind == ValueKind::None) continue;
      const FsdpKey* info = find_fsdp_key(f.prefixed);
      Value v = a->value;
      if (f.kwarg == "auto_wrap_policy" && v.kind != ValueKind::String) {
        v = v.kind == ValueKind::Unknown ? v : Value::of_string("CUSTOM", v.region);
      } else if (f.kwarg == "reshard_after_forward" && v.kind == ValueKind::Bool) {
        // a Python bool is kept as is (FSDP2 semantics; FSDP1 rejects it)
      } else if (v.kind == ValueKind::Enum || v.kind == ValueKind::String || v.kind == ValueKind::Int) {
        Value as_text = v;
        if (v.kind == ValueKind::Enum) as_text = Value::of_string(v.text, v.region);
        v = normalise_value(f.prefixed, as_text);
      }
      add_call_setting(l, doc, *c, *a, info->canonical, v, Origin::PluginObject);
    }
    if (const PyArg* a = c->keyword("cpu_offload")) {
      Value v = a->value.kind == ValueKind::Bool ? a->value : Value::unknown(a->region);
      if (a->value.kind == ValueKind::Object) v = Value::of_bool(true, a->region);
      add_call_setting(l, doc, *c, *a, keys::kOffloadParams, v, Origin::PluginObject);
    }
  }
  // accelerator.state.fsdp_plugin.<field> = value (PEFT's documented recipe) wins over the constructed plugin.
  for (const PyAttributeAssignment& a : py.attribute_assignments) {
    if (a.target.find("fsdp_plugin.") == std::string::npos) continue;
    for (const PluginField& f : plugin_fields()) {
      if (a.attribute != f.kwarg) continue;
      const FsdpKey* info = find_fsdp_key(f.prefixed);
      Value v = a.value;
      if (f.kwarg == "auto_wrap_policy" && v.kind != ValueKind::String && v.kind != ValueKind::Unknown)
        v = Value::of_string("CUSTOM", v.region);
      l.add(make_setting(info->canonical, v, a.value, doc, a.region, Origin::PluginObject, a.target));
    }
  }
}

/// Environment variables of the launch script that the FSDP plugin reads (§3.3).
void collect_environment(const Document& script_doc, const LaunchCommand& cmd, Launch& l, bool launcher_overwrites) {
  for (const EnvVar& k : env_vars()) {
    auto it = cmd.env.find(std::string(k.var));
    if (it == cmd.env.end()) continue;
    const FsdpKey* info = find_fsdp_key(k.prefixed);
    const Word& w = it->second;
    Value written = w.known ? Value::of_string(w.text, w.region) : Value::unknown(w.region);
    Value v = w.known ? normalise_value(k.prefixed, written) : written;
    Setting s =
        make_setting(info->canonical, v, written, script_doc, w.region, Origin::Environment, std::string(k.var));
    if (launcher_overwrites && k.always_written) s.source = SourceKind::EnvOverwrittenByLauncher;
    l.add(std::move(s));
  }
  if (auto it = cmd.env.find("ACCELERATE_USE_FSDP"); it != cmd.env.end() && !launcher_overwrites) {
    // accelerate enables FSDP from the environment only for the exact string "true" (accelerator.py:387-396).
    const Word& w = it->second;
    Value v = w.known ? Value::of_bool(w.text == "true" || w.text == "True" || w.text == "TRUE", w.region)
                      : Value::unknown(w.region);
    l.add(make_setting(keys::kFsdpEnabled, v, Value::of_string(w.text), script_doc, w.region, Origin::Environment,
                       "ACCELERATE_USE_FSDP"));
  }
}

void collect_launch_flags(const Document& script_doc, const LaunchCommand& cmd, Launch& l) {
  for (const Flag& f : cmd.flags) {
    const std::string spelled = "--" + f.name;
    auto add = [&](std::string_view key, Value v) {
      Value written = f.value ? Value::of_string(f.value->text, f.value->region) : Value::of_bool(true, f.region);
      if (f.value && !f.value->known) v = Value::unknown(f.value->region);
      v.region = f.region;
      l.add(make_setting(key, v, written, script_doc, f.region, Origin::LaunchFlag, spelled));
    };
    static const std::map<std::string, std::string> kParadigm = {{"multi_gpu", "MULTI_GPU"},
                                                                 {"use_deepspeed", "DEEPSPEED"},
                                                                 {"use_fsdp", "FSDP"},
                                                                 {"cpu", "MULTI_CPU"},
                                                                 {"tpu", "XLA"},
                                                                 {"use_megatron_lm", "MEGATRON_LM"}};
    if (auto p = kParadigm.find(f.name); p != kParadigm.end()) {
      add(keys::kDistributedType, Value::of_string(p->second));
    } else if ((f.name == "num_processes" || f.name == "num_machines") && f.value) {
      Value v = Value::unknown();
      if (const auto n = int_of(&*f.value)) v = Value::of_int(*n);
      add(f.name == "num_processes" ? keys::kNumProcesses : keys::kNumMachines, v);
    } else if (f.name == "mixed_precision" && f.value) {
      add(keys::kMixedPrecision, Value::of_string(f.value->text));
    } else if (f.value) {
      if (const FsdpKey* info = find_fsdp_key(f.name))  // `--fsdp_x`: the flag names the prefixed key
        add(info->canonical, normalise_value(f.name, Value::of_string(f.value->text)));
    }
  }
}

void decide_fsdp(Launch& l, bool launcher_defaults) {
  for (const FsdpKey& k : fsdp_keys()) {
    std::optional<Setting> fallback;
    if (launcher_defaults && !k.launch_default.empty()) {
      fallback = default_setting(k.canonical, normalise_value(k.name, Value::of_string(std::string(k.launch_default))),
                                 SourceKind::LauncherDefault, "accelerate launch default of --" + std::string(k.name));
    } else if (!k.plugin_default.empty()) {
      fallback = default_setting(k.canonical, normalise_value(k.name, Value::of_string(std::string(k.plugin_default))),
                                 SourceKind::LibraryDefault,
                                 k.plugin_default_note.empty() ? std::string("FullyShardedDataParallelPlugin default")
                                                               : std::string(k.plugin_default_note));
    }
    decide(l, k.canonical, std::move(fallback));
  }
  // accelerate before 1.6.0 has no FSDP2 and reads no fsdp_version (accelerate v1.5.2 has none anywhere in src/;
  // v1.6.0 src/accelerate/utils/dataclasses.py reads FSDP_VERSION): whatever is written, FSDP1 runs.
  if (target_versions().before("accelerate", Version{1, 6, 0}) && !l.assignments(keys::kFsdpVersion).empty()) {
    const AssumedVersion& acc = target_versions().get("accelerate");
    const Setting* forced =
        l.add(default_setting(keys::kFsdpVersion, Value::of_int(1), SourceKind::LibraryDefault,
                              "accelerate " + acc.display() + " (" + acc.origin + ") has FSDP1 only (fsdp_version from 1.6.0)"));
    std::vector<const Setting*> ranked{forced};
    for (const Setting* o : l.assignments(keys::kFsdpVersion)) {
      if (o != forced) ranked.push_back(o);
    }
    l.decide(keys::kFsdpVersion, std::move(ranked), "accelerate before 1.6.0 reads no fsdp_version");
  }
  if (l.get(keys::kStateDictType)->decided_by == nullptr) {
    if (const auto v = l.fsdp_version()) {
      decide(l, keys::kStateDictType,
             default_setting(keys::kStateDictType, Value::of_string(std::string(state_dict_type_default(*v))),
                             SourceKind::LibraryDefault, "FullyShardedDataParallelPlugin default"));
    }
  }
}

/// Keys the effective FSDP version never reads become "not read" in the effective view (their assignments stay).
void mark_unread(Launch& l) {
  const auto v = l.fsdp_version();
  if (!v) return;
  if (*v == 1) {
    // The FSDP1 plugin forces sync_module_states on when cpu_ram_efficient_loading is on, with a warning
    // (dataclasses.py:1966-1971; oracle cases p1-J2, p3-T12).
    const Value& cre = l.value(keys::kCpuRamEfficientLoading);
    const Value& sync = l.value(keys::kSyncModuleStates);
    if (cre.kind == ValueKind::Bool && cre.boolean && sync.kind == ValueKind::Bool && !sync.boolean) {
      Setting forced = default_setting(keys::kSyncModuleStates, Value::of_bool(true), SourceKind::LibraryDefault,
                                       "forced on by the FSDP1 plugin because cpu_ram_efficient_loading is on");
      const Setting* f = l.add(std::move(forced));
      std::vector<const Setting*> ranked{f};
      for (const Setting* o : l.assignments(keys::kSyncModuleStates)) {
        if (o != f) ranked.push_back(o);
      }
      l.decide(keys::kSyncModuleStates, std::move(ranked),
               "the FSDP1 plugin forces it when cpu_ram_efficient_loading is on");
    }
    l.set_unknown(keys::kReshardAfterForward, "not read by FSDP1: the strategy comes from fsdp_sharding_strategy");
  } else {
    for (std::string_view key : {keys::kShardingStrategy, keys::kBackwardPrefetch, keys::kForwardPrefetch,
                                 keys::kUseOrigParams, keys::kSyncModuleStates}) {
      l.set_unknown(key, "not read by FSDP2");
    }
  }
}

void resolve_config_alone(const Document& doc, Launch& l) {
  // The same path as a bound launch, so every default has one copy.
  parse::LaunchCommand cmd;
  cmd.tool = parse::LaunchTool::AccelerateLaunch;
  Flag config_file;
  config_file.name = "config_file";
  config_file.value = Word{doc.path(), true, {}};
  cmd.flags.push_back(std::move(config_file));
  BoundInputs in;
  in.script_doc = &doc;
  in.command = &cmd;
  in.accelerate_config = &doc;
  resolve_launch(in, l);
}

void resolve_launch(const BoundInputs& in, Launch& l) {
  const parse::LaunchCommand& cmd = *in.command;
  l.launcher = Launcher::AccelerateLaunch;
  // What the launcher itself runs: a paradigm flag, else the config's distributed_type. Only under FSDP does
  // it export fsdp_config and the --fsdp_* defaults (utils/launch.py:304-332).
  std::optional<std::string> launcher_dt;
  for (const Flag& f : cmd.flags) {
    if (f.name == "use_fsdp")
      launcher_dt = "FSDP";
    else if (f.name == "multi_gpu" || f.name == "use_deepspeed" || f.name == "cpu" || f.name == "tpu" ||
             f.name == "use_megatron_lm")
      launcher_dt = "OTHER";
  }
  if (!launcher_dt && in.accelerate_config != nullptr && in.accelerate_config->root_map() != nullptr) {
    if (const parse::Node* dt = in.accelerate_config->root_map()->find("distributed_type");
        dt != nullptr && dt->kind == parse::NodeKind::String)
      launcher_dt = dt->text;
  }
  const bool launcher_fsdp = launcher_dt.value_or("FSDP") == "FSDP";
  collect_environment(*in.script_doc, cmd, l, launcher_fsdp);
  if (in.accelerate_config != nullptr) collect_config(*in.accelerate_config, l, launcher_fsdp);
  collect_launch_flags(*in.script_doc, cmd, l);
  collect_script(in, l);
  // `accelerate launch -m axolotl.cli.train cfg.yml`: axolotl builds the Trainer from its YAML.
  if (in.axolotl != nullptr) axolotl::collect_config(*in.axolotl, l);
  // A plugin passed to Accelerator (the Trainer's own, or the script's) turns FSDP on in the process whatever
  // the launcher chose (accelerator.py:393-396).
  for (const Setting* s : l.assignments(keys::kFsdpEnabled)) {
    if ((s->origin == Origin::PluginObject || s->origin == Origin::TrainingArguments) &&
        s->value.kind == ValueKind::Bool && s->value.boolean) {
      Setting dt = *s;
      dt.key = std::string(keys::kDistributedType);
      dt.value = Value::of_string("FSDP", s->region);
      l.add(std::move(dt));
      break;
    }
  }
  // distributed_type: a paradigm flag beats the config file (launch.py:1214-1242).
  decide(l, keys::kDistributedType, std::nullopt, "no config file and no paradigm flag");
  const Value& dt = l.value(keys::kDistributedType);
  if (dt.kind == ValueKind::String) {
    Setting s = *l.get(keys::kDistributedType)->decided_by;
    s.key = std::string(keys::kFsdpEnabled);
    s.value = Value::of_bool(dt.text == "FSDP", s.region);
    l.add(std::move(s));
  }
  decide(l, keys::kFsdpEnabled, std::nullopt, "distributed_type is not known");
  // With distributed_type NO and no num_processes, the launcher runs one process (the config's default for NO).
  std::optional<Setting> np_default;
  if (dt.kind == ValueKind::String && dt.text == "NO")
    np_default = default_setting(keys::kNumProcesses, Value::of_int(1), SourceKind::LibraryDefault,
                                 "accelerate config default for NO");
  decide(l, keys::kNumProcesses, std::move(np_default), "not set");
  decide(l, keys::kNumMachines,
         default_setting(keys::kNumMachines, Value::of_int(1), SourceKind::LibraryDefault, "accelerate default"));
  decide(l, keys::kMixedPrecision,
         default_setting(keys::kMixedPrecision, Value::of_string("no"), SourceKind::LauncherDefault,
                         "accelerate launch default"));
  const Value& np = l.value(keys::kNumProcesses);
  if (np.kind == ValueKind::Int && np.integer > 0) {
    Setting ws = *l.get(keys::kNumProcesses)->decided_by;
    ws.key = std::string(keys::kWorldSize);
    l.add(std::move(ws));
    decide(l, keys::kWorldSize, std::nullopt);
  } else {
    l.set_unknown(keys::kWorldSize, "num_processes is not known");
  }
  decide_fsdp(l, launcher_fsdp);
  mark_unread(l);
}

}  // namespace lint::model::accelerate
