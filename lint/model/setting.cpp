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

}  // namespace lint::model
