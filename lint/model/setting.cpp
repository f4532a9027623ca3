#include "lint/model/setting.hpp"

namespace lint::model {

std::string_view to_string(Origin o) {
  switch (o) {
    case Origin::ConfigFile:
      return "config file";
    case Origin::LaunchFlag:
      return "launch flag";
    case Origin::Environment:
      return "environment";
    case Origin::PluginObject:
      return "FSDP plugin in the script";
    case Origin::TrainingArguments:
      return "TrainingArguments";
    case Origin::TrainerFsdpConfig:
      return "Trainer fsdp_config";
    case Origin::TorchCall:
      return "torch FSDP call";
    case Origin::ScriptCall:
      return "script";
    case Origin::LightningStrategy:
      return "Lightning FSDPStrategy";
    case Origin::TorchtitanConfig:
      return "torchtitan config";
    case Origin::AxolotlConfig:
      return "axolotl config";
    case Origin::DeepSpeedConfig:
      return "DeepSpeed config";
    case Origin::Default:
      return "default";
  }
  return "default";
}

std::string_view to_string(SourceKind k) {
  switch (k) {
    case SourceKind::Unspecified:
      return "unspecified";
    case SourceKind::TorchCall:
      return "torch call";
    case SourceKind::LightningStrategy:
      return "Lightning strategy";
    case SourceKind::PluginField:
      return "plugin field";
    case SourceKind::TrainerArgument:
      return "Trainer argument";
    case SourceKind::TrainerFsdp1StrategyWord:
      return "Trainer FSDP1 strategy word";
    case SourceKind::ScriptCall:
      return "script call";
    case SourceKind::LauncherFlag:
      return "launcher flag";
    case SourceKind::ConfigFile:
      return "config file";
    case SourceKind::LauncherDefault:
      return "launcher default";
    case SourceKind::LibraryDefault:
      return "library default";
    case SourceKind::InheritedEnv:
      return "inherited environment";
    case SourceKind::EnvOverwrittenByLauncher:
      return "environment overwritten by the launcher";
  }
  return "unspecified";
}

SourceKind source_kind_of(const Setting& s) {
  if (s.source != SourceKind::Unspecified) return s.source;
  switch (s.origin) {
    case Origin::TorchCall:
      return SourceKind::TorchCall;
    case Origin::LightningStrategy:
      return SourceKind::LightningStrategy;
    case Origin::PluginObject:
      return SourceKind::PluginField;
    case Origin::TrainingArguments:
    case Origin::TrainerFsdpConfig:
      return SourceKind::TrainerArgument;
    case Origin::ScriptCall:
      return SourceKind::ScriptCall;
    case Origin::LaunchFlag:
      return SourceKind::LauncherFlag;
    case Origin::ConfigFile:
    case Origin::TorchtitanConfig:
    case Origin::AxolotlConfig:
    case Origin::DeepSpeedConfig:
      return SourceKind::ConfigFile;
    case Origin::Environment:
      return SourceKind::InheritedEnv;
    case Origin::Default:
      return SourceKind::LibraryDefault;
  }
  return SourceKind::LibraryDefault;
}

}  // namespace lint::model
