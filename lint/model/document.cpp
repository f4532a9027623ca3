#include "lint/model/document.hpp"

namespace lint::model {

std::string_view to_string(DocKind kind) {
  switch (kind) {
    case DocKind::Unknown:
      return "unknown";
    case DocKind::AccelerateConfig:
      return "accelerate config";
    case DocKind::TrainerFsdpConfig:
      return "Trainer fsdp_config";
    case DocKind::DeepSpeedConfig:
      return "DeepSpeed config";
    case DocKind::TorchtitanConfig:
      return "torchtitan config";
    case DocKind::LlamaFactoryConfig:
      return "LLaMA-Factory config";
    case DocKind::AxolotlConfig:
      return "axolotl config";
    case DocKind::TrainerArgsConfig:
      return "TrainingArguments YAML";
    case DocKind::PythonScript:
      return "Python script";
    case DocKind::LaunchScript:
      return "launch script";
  }
  return "unknown";
}

const std::vector<parse::ParseError>& Document::parse_errors() const {
  if (python) return python->syntax_errors;
  if (kind == DocKind::LaunchScript) return shell_errors.get();
  return config->errors;
}

const parse::Node* Document::root_map() const {
  if (!config->has_root || !config->root.is_map()) return nullptr;
  return &config->root;
}

const parse::ConfigDocument& ConfigBox::empty() {
  static const parse::ConfigDocument kEmpty;
  return kEmpty;
}

}  // namespace lint::model
