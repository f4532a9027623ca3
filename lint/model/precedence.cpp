#include "lint/model/precedence.hpp"

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace lint::model {

namespace {

using K = SourceKind;

/// A table from tiers, highest first; kinds in one tier rank equal (the later assignment wins).
RankTable make_table(std::string_view launcher, std::initializer_list<std::initializer_list<K>> tiers,
                     std::initializer_list<K> never_decides = {}, std::string_view undecided_reason = {}) {
  RankTable t;
  t.launcher = launcher;
  int rank = static_cast<int>(tiers.size()) + 1;
  for (const auto& tier : tiers) {
    for (K k : tier) t.rank[static_cast<std::size_t>(k)] = rank;
    --rank;
  }
  for (K k : never_decides) {
    t.never_decides[static_cast<std::size_t>(k)] = true;
    t.rank[static_cast<std::size_t>(k)] = 0;
  }
  t.undecided_reason = undecided_reason;
  return t;
}

/// Under FSDP1 the Trainer passes its strategy word as `reshard_after_forward`, which FSDP1 never reads; the plugin
/// then takes FSDP_SHARDING_STRATEGY or FULL_SHARD (transformers 5.17 training_args.py:2884-2896 with accelerate
/// 1.15 dataclasses.py:1815-1830; oracle cases p3-T4, p3-T6). The word is kept only to be reported.
constexpr std::string_view kFsdp1WordReason =
    "FSDP1 under the Trainer takes the strategy from FSDP_SHARDING_STRATEGY or FULL_SHARD";

/// `accelerate launch` (commands/launch.py, utils/launch.py:304-332, utils/dataclasses.py): objects built in the
/// script decide for the process; the launcher's flags beat the config file (launch.py:1259-1271), which beats the
/// flag defaults the launcher exports, which beat what the launch script exported itself (the launcher overwrites
/// the variables it always writes), which beats the plugin's own defaults.
const RankTable& accelerate_table() {
  static const RankTable t = make_table("accelerate launch",
                                        {{K::TorchCall, K::LightningStrategy},
                                         {K::PluginField},
                                         {K::TrainerArgument, K::ScriptCall},
                                         {K::LauncherFlag},
                                         {K::ConfigFile},
                                         {K::LauncherDefault},
                                         {K::InheritedEnv, K::EnvOverwrittenByLauncher},
                                         {K::LibraryDefault}},
                                        {K::TrainerFsdp1StrategyWord}, kFsdp1WordReason);
  return t;
}

/// torchrun / python / deepspeed: no accelerate launcher, so the script's objects, then the environment the launch
/// script exports (FSDP_*, ACCELERATE_*; accelerator.py:387-396), then the library defaults.
const RankTable& plain_table(std::string_view name) {
  static const auto build = [](std::string_view n) {
    return make_table(n,
                      {{K::TorchCall, K::LightningStrategy},
                       {K::PluginField},
                       {K::TrainerArgument, K::ScriptCall},
                       {K::LauncherFlag},
                       {K::ConfigFile},
                       {K::LauncherDefault},
                       {K::InheritedEnv, K::EnvOverwrittenByLauncher},
                       {K::LibraryDefault}},
                      {K::TrainerFsdp1StrategyWord}, kFsdp1WordReason);
  };
  static const RankTable torchrun = build("torchrun");
  static const RankTable python = build("python");
  static const RankTable deepspeed = build("deepspeed");
  if (name == "torchrun") return torchrun;
  if (name == "deepspeed") return deepspeed;
  return python;
}

/// torchtitan's run_train.sh: the job TOML, over the script's exported NGPU / defaults (torchtitan v0.2.2).
const RankTable& torchtitan_table() {
  static const RankTable t = make_table("torchtitan run_train.sh",
                                        {{K::TorchCall, K::LightningStrategy},
                                         {K::PluginField},
                                         {K::TrainerArgument, K::ScriptCall},
                                         {K::LauncherFlag},
                                         {K::ConfigFile},
                                         {K::LauncherDefault},
                                         {K::InheritedEnv, K::EnvOverwrittenByLauncher},
                                         {K::LibraryDefault}},
                                        {K::TrainerFsdp1StrategyWord}, kFsdp1WordReason);
  return t;
}

/// A file linted alone (or an axolotl / LLaMA-Factory launch, whose own launcher is not modelled): the same order;
/// what a launcher would export stays unknown.
const RankTable& unknown_table() {
  static const RankTable t = make_table("unknown",
                                        {{K::TorchCall, K::LightningStrategy},
                                         {K::PluginField},
                                         {K::TrainerArgument, K::ScriptCall},
                                         {K::LauncherFlag},
                                         {K::ConfigFile},
                                         {K::LauncherDefault},
                                         {K::InheritedEnv, K::EnvOverwrittenByLauncher},
                                         {K::LibraryDefault}},
                                        {K::TrainerFsdp1StrategyWord}, kFsdp1WordReason);
  return t;
}

/// Why the winner beat the others, in words (presentation only; the decision is the table's).
std::string precedence_reason(const Setting& winner) {
  switch (winner.origin) {
    case Origin::PluginObject:
      return "a FullyShardedDataParallelPlugin field set in the script beats the launcher's environment";
    case Origin::TrainingArguments:
      return "the Trainer builds its own FSDP plugin from TrainingArguments, which beats the launcher's environment";
    case Origin::LaunchFlag:
      return "an `accelerate launch` flag beats the config file";
    case Origin::ConfigFile:
      return "the config file beats the launcher's defaults and the inherited environment";
    case Origin::Default:
      return winner.note;
    default:
      return {};
  }
}

}  // namespace

const RankTable& rank_table(Launcher launcher) {
  switch (launcher) {
    case Launcher::AccelerateLaunch:
      return accelerate_table();
    case Launcher::Torchrun:
      return plain_table("torchrun");
    case Launcher::Python:
      return plain_table("python");
    case Launcher::DeepSpeed:
      return plain_table("deepspeed");
    case Launcher::Torchtitan:
      return torchtitan_table();
    case Launcher::Unknown:
      return unknown_table();
  }
  return unknown_table();
}

int rank_of(const Setting& s, Launcher launcher) {
  return rank_table(launcher).of(source_kind_of(s));
}

void decide(Launch& l, std::string_view key, std::optional<Setting> fallback, std::string reason) {
  const RankTable& table = rank_table(l.launcher);
  auto rank = [&](const Setting& s) { return table.of(source_kind_of(s)); };
  std::vector<const Setting*> ranked = l.assignments(key);
  std::reverse(ranked.begin(), ranked.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [&](const Setting* a, const Setting* b) { return rank(*a) > rank(*b); });
  if (fallback && (ranked.empty() || rank(*ranked.front()) < rank(*fallback)))
    ranked.insert(ranked.begin(), l.add(std::move(*fallback)));
  if (ranked.empty()) {
    l.set_unknown(key, std::move(reason));
    return;
  }
  if (table.never_decides[static_cast<std::size_t>(source_kind_of(*ranked.front()))]) {
    l.set_unknown(key, std::string(table.undecided_reason));
    return;
  }
  std::string why = ranked.size() > 1 ? precedence_reason(*ranked.front()) : std::string{};
  l.decide(key, std::move(ranked), std::move(why));
}

Setting make_setting(std::string_view key, Value value, const Value& written, const Document& doc,
                     source::Region region, Origin origin, std::string spelled, SourceKind source) {
  Setting s;
  s.key = std::string(key);
  s.value = std::move(value);
  s.written = written;
  s.path = doc.path();
  s.region = region;
  s.origin = origin;
  s.spelled = std::move(spelled);
  s.source = source;
  return s;
}

Setting call_default_setting(std::string_view key, Value value, const Document& doc, source::Region region,
                             Origin origin, const std::string& call_name) {
  Setting s = make_setting(key, std::move(value), Value{}, doc, region, origin, call_name + "(...) default");
  s.call_default = true;
  return s;
}

Setting default_setting(std::string_view key, Value value, SourceKind source, std::string note) {
  Setting s;
  s.key = std::string(key);
  s.value = std::move(value);
  s.written = s.value;
  s.origin = Origin::Default;
  s.source = source;
  s.note = std::move(note);
  return s;
}

}  // namespace lint::model
