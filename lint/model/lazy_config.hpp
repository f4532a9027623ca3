#pragma once
// mmengine-style lazy configs (xtuner, OpenMMLab): a `dict(type=Callable, ...)` that the framework builds.

#include <string>

#include "lint/model/python_facts.hpp"

namespace lint::model {

/// The class an mmengine-style lazy config builds: `dict(type=LoraConfig, r=64)` stands for `LoraConfig(r=64)`,
/// which the framework builds from the dict's other keywords when it reads the config (xtuner's configs write the
/// model as `llm=dict(type=AutoModelForCausalLM.from_pretrained, ...)` and the adapter as
/// `lora=dict(type=LoraConfig, ...)`). The qualified name of `type=` when the call is the builtin `dict` and `type=`
/// names an imported callable (`peft.LoraConfig`, `transformers.AutoModelForCausalLM.from_pretrained`); empty
/// otherwise.
std::string lazy_config_type(const PyCall& call);

}  // namespace lint::model
