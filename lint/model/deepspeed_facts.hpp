// DeepSpeed in a launch: whether it is on, which JSON it reads, the effective ZeRO stage and who reads the file
// (the HF Trainer / accelerate integration, plain `deepspeed.initialize`, Lightning). Read from every door a
// launch can open: a bound DeepSpeed JSON, accelerate's `distributed_type: DEEPSPEED`, `TrainingArguments(deepspeed=)`,
// `--deepspeed` script flags, axolotl / LLaMA-Factory `deepspeed:` and Lightning's DeepSpeedStrategy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lint/model/launch.hpp"
#include "lint/model/python_facts.hpp"

namespace lint::model {

/// Who reads a DeepSpeed JSON; it decides what strings, "auto" and duplicate keys do.
enum class DeepSpeedReader : std::uint8_t {
  Unknown,      ///< not known (a file linted alone, or a script that does not say)
  Integration,  ///< the HF Trainer or accelerate: `json.load`, "auto" filled from the Trainer's arguments
  Raw,          ///< `deepspeed.initialize` reads the file itself (hjson, duplicate keys rejected)
  Lightning,    ///< Lightning's DeepSpeedStrategy: it owns the batch and accumulation keys
};

std::string_view to_string(DeepSpeedReader r);

/// A place in a file, for messages and related locations.
struct Site {
  std::string path;
  source::Region region;
  std::string what;  ///< how it is written, for messages (`deepspeed: ds_z3.json`, `distributed_type: DEEPSPEED`)
};

struct DeepSpeedState {
  bool on = false;                         ///< DeepSpeed is known to be on in the launch
  std::optional<Site> turned_on;           ///< where it is turned on
  const Document* config = nullptr;        ///< the DeepSpeed JSON of the launch (bound, or the file alone)
  std::optional<std::int64_t> zero_stage;  ///< the effective ZeRO stage, when known
  std::optional<Site> stage_site;          ///< where the stage is decided
  std::optional<bool> offload;             ///< optimizer or parameter offload to cpu/nvme, when known
  DeepSpeedReader reader = DeepSpeedReader::Unknown;
};

/// DeepSpeed as the launch configures it. Unknown parts stay unknown. Computed once per launch (Launch::derived).
const DeepSpeedState& deepspeed_state(const Launch& l);

/// The ZeRO stage a DeepSpeed JSON sets: 0 without `zero_optimization` (or without `stage`), the integer when it is
/// one, nullopt otherwise ("auto", a string, a float). `where` receives the stage node when there is one.
std::optional<std::int64_t> json_zero_stage(const parse::Node& root, const parse::Node** where = nullptr);

/// Whether a DeepSpeed JSON offloads the optimizer or the parameters to cpu/nvme; nullopt when a device is not a
/// known string.
std::optional<bool> json_offload(const parse::Node& root);

/// The Python script of a launch, if any.
const Document* launch_script(const Launch& l);

/// A LLaMA-Factory entry script (`src/train.py`, the older `src/train_bash.py`): it imports `llamafactory` (or
/// `llmtuner`), hands its flags to LLaMA-Factory's HfArgumentParser and trains with the HF Trainer.
bool is_llamafactory_script(const PythonFacts& py);

/// A `TrainingArguments` / TRL config call (`SFTConfig`, `GRPOConfig`, ...) or the Trainer's argument classes.
bool is_training_arguments_class(std::string_view name);

/// `--name value` / `--name=value` / bare `--name` among the script arguments of a bound launch (HfArgumentParser
/// style; `-` in names read as `_`); the last occurrence wins.
struct ScriptFlag {
  std::string name;
  std::optional<parse::Word> value;  ///< absent for a bare flag
  source::Region region;             ///< the flag and its value
  std::string path;                  ///< the file it is written in (the launch script, or a recipe YAML)
  bool from_yaml = false;            ///< a key of a recipe YAML rather than a command-line flag
};
std::vector<ScriptFlag> script_flags(const std::vector<parse::Word>& args);
/// The arguments the script's HfArgumentParser / TrlParser receives: the top-level scalar keys of a bound recipe
/// YAML (`trl sft --config recipe.yaml`, `script.py recipe.yaml` read by parse_yaml_file / TrlParser) first, then
/// the command line's flags, which TrlParser lets override the YAML (the last occurrence wins). Empty for a file
/// linted alone that is neither. Computed once per launch (Launch::derived).
const std::vector<ScriptFlag>& script_flags(const Launch& l);
const ScriptFlag* find_script_flag(const std::vector<ScriptFlag>& flags, std::string_view name);

}  // namespace lint::model
