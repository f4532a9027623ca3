// Quantized and device-placed model loading in a launch: bitsandbytes 8-bit / 4-bit loading (Python
// `from_pretrained(load_in_8bit=True)` and `BitsAndBytesConfig(...)`, TRL / peft-example script flags, axolotl and
// LLaMA-Factory YAML), the 4-bit storage and model dtypes, `device_map=` / `low_cpu_mem_usage=True` in
// `from_pretrained`, and Unsloth.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "lint/model/deepspeed_facts.hpp"

namespace lint::model {

/// Which front end loads the model.
enum class LoaderFrontEnd : std::uint8_t { Python, ScriptFlags, Axolotl, LlamaFactory };

/// One quantized load.
struct QuantizedLoad {
  int bits = 0;  ///< 8 or 4
  LoaderFrontEnd front_end = LoaderFrontEnd::Python;
  Site site;  ///< where the quantization is switched on
  /// `bnb_4bit_quant_storage` as a dtype name (`bfloat16`, `uint8`); "" when not written (bitsandbytes' default
  /// uint8) and nullopt when written but not statically known.
  std::optional<std::string> storage = std::string();
  std::optional<Site> storage_site;
  /// The model's dtype (`dtype=` / `torch_dtype=`); "" when not written, nullopt when not known.
  std::optional<std::string> model_dtype = std::string();
  std::optional<Site> dtype_site;
};

struct QuantizationFacts {
  std::vector<QuantizedLoad> loads;
  std::vector<Site> device_maps;        ///< `device_map=<not None>` in a model's `from_pretrained`
  std::vector<Site> auto_device_maps;   ///< the subset that spreads one process over GPUs ("auto", ...)
  std::vector<Site> low_cpu_mem_usage;  ///< `low_cpu_mem_usage=True` in a model's `from_pretrained`
  std::vector<Site> unsloth;            ///< `use_unsloth: true` (LLaMA-Factory) / `from unsloth import ...`
};

/// Everything above, from the documents of a launch. A script that writes both an 8-bit and a 4-bit
/// configuration (chosen at run time) reports neither. Computed once per launch (Launch::derived).
const QuantizationFacts& quantization_facts(const Launch& l);

/// A dtype name from a value: `torch.bfloat16`, `"bfloat16"`, `"bf16"` -> `bfloat16`; nullopt when unknown.
std::optional<std::string> dtype_name(const Value& v);

}  // namespace lint::model
