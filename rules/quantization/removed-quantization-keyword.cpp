// QNT005: `load_in_8bit=` / `load_in_4bit=` passed to `from_pretrained` where the target transformers no longer
// takes them (removed in 5.0): the keyword reaches the model's __init__ and raises TypeError.
#include <cctype>

#include "lint/model/versions.hpp"
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

/// A `from_pretrained` of transformers (Auto classes, model classes): not a tokenizer or config, not PEFT's, and
/// not Unsloth's FastLanguageModel / FastModel, which still take `load_in_4bit` / `load_in_8bit` themselves.
bool transformers_loader(const model::PyCall& c) {
  if (c.name != "from_pretrained") return false;
  for (std::string_view not_transformers :
       {"Tokenizer", "Processor", "Config", "FeatureExtractor", "Peft", "tokenizer", "processor", "FastLanguageModel",
        "FastModel", "FastVisionModel", "unsloth", "AutoGPTQ", "AutoAWQ"}) {
    if (c.callee.find(not_transformers) != std::string::npos) return false;
  }
  return true;
}

/// Unsloth's loaders under another name: `from unsloth import FastVisionModel as UnslothModel` (ms-swift picks one of
/// three such imports per branch, so the name resolves to none of them), `unsloth_model.from_pretrained`.
bool unsloth_loader(const model::PyCall& c, const model::PythonFacts& py) {
  const std::string head = c.callee.substr(0, c.callee.find('.'));
  if (auto it = py.imports.find(head); it != py.imports.end() && it->second.starts_with("unsloth")) return true;
  std::string lower = head;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return lower.find("unsloth") != std::string::npos;
}

/// Named like a transformers model class: `AutoModelForCausalLM`, `LlamaForCausalLM`, `MyPreTrainedModel`.
bool transformers_class_name(std::string_view name) {
  if (name.starts_with("Auto") || name.ends_with("PreTrainedModel")) return true;
  for (std::size_t at = name.find("For"); at != std::string_view::npos; at = name.find("For", at + 1)) {
    if (at + 3 < name.size() && std::isupper(static_cast<unsigned char>(name[at + 3])) != 0) return true;
  }
  return false;
}

/// A loader of the project itself, whose `from_pretrained` has its own signature: a class imported by a relative
/// import (`from .llama import FastLlamaModel`), or any receiver but `super()` / `cls` inside a function that is
/// itself a `from_pretrained` (a wrapper forwarding its own `load_in_4bit`, as Unsloth's Fast*Model classes do). A
/// receiver imported from transformers or named like a transformers model class is still checked.
bool project_loader(const model::PyCall& c) {
  if (c.callee.starts_with("transformers.")) return false;
  const std::string_view receiver = c.receiver.empty() ? std::string_view(c.callee) : std::string_view(c.receiver);
  const std::string_view last =
      receiver.substr(receiver.rfind('.') == std::string_view::npos ? 0 : receiver.rfind('.') + 1);
  if (transformers_class_name(last)) return false;
  if (c.callee.starts_with(".")) return true;
  if (c.function != "from_pretrained") return false;
  return !(receiver.starts_with("super(") || receiver == "cls" || receiver == "self");
}

class RemovedQuantizationKeyword final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::PythonScript || !doc.python) return;
    // Removed by huggingface/transformers#41287 for v5.0; the recorded TypeError is transformers 5.17.0.
    if (!model::target_versions().at_least("transformers", {5, 0, 0})) return;
    for (const model::PyCall& c : doc.python->calls) {
      if (!transformers_loader(c) || unsloth_loader(c, *doc.python) || project_loader(c)) continue;
      for (const char* name : {"load_in_8bit", "load_in_4bit"}) {
        const model::PyArg* a = c.keyword(name);
        if (a == nullptr) continue;
        const std::string bits = std::string(name) == "load_in_8bit" ? "load_in_8bit" : "load_in_4bit";
        ctx.report(doc.path(), a->name_region,
                   "`" + bits +
                       "=` is no longer a `from_pretrained` argument: transformers 5 removed it "
                       "(huggingface/transformers#41287), so the keyword reaches the model class and raises "
                       "TypeError(\"__init__() got an unexpected keyword argument '" +
                       bits + "'\") while loading. Pass `quantization_config=BitsAndBytesConfig(" + bits +
                       "=True)` instead.");
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_removed_quantization_keyword() {
  return std::make_unique<RemovedQuantizationKeyword>();
}

}  // namespace lint::rules
