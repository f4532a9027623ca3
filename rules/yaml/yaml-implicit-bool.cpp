// YML002: an unquoted yes/no/on/off/true/false that PyYAML (YAML 1.1) loads as a bool where a string is meant.
#include <algorithm>
#include <cctype>
#include <span>
#include <string>
#include <string_view>

#include "rules/fix_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

namespace acc = model::accelerate;
using rule::Severity;

/// A key that takes a string, and what the bool does there.
struct StringKey {
  std::string_view name;
  Severity severity;
  std::string_view consequence;               ///< completes "..., not the string 'no': <consequence>"; $KEY = the key
  std::span<const std::string_view> choices;  ///< the accepted strings (any case); empty = free text
};

// Which string keys the bool breaks, per section: accelerate src/accelerate/commands/config/config_args.py:55-173,
// src/accelerate/utils/launch.py:278-282 and :304-332, src/accelerate/utils/constants.py:38-40 (docs/sources.md).
const StringKey kAccelerateTop[] = {
    {"mixed_precision", Severity::Error,
     "`accelerate launch` crashes with AttributeError: 'bool' object has no attribute 'lower'",
     acc::mixed_precisions()},
    {"compute_environment", Severity::Error,
     "accelerate reads any `compute_environment` other than LOCAL_MACHINE as a SageMaker config",
     acc::compute_environments()},
};

// fsdp_config keys, named without the `fsdp_` prefix that accelerate adds when it is missing.
const StringKey kFsdp[] = {
    {"sharding_strategy", Severity::Warning, "$KEY takes a sharding strategy name", acc::sharding_strategies()},
    {"auto_wrap_policy", Severity::Warning, "$KEY takes a wrap policy name", acc::wrap_policies()},
    {"backward_prefetch", Severity::Warning, "$KEY takes a prefetch mode name", acc::backward_prefetches()},
    {"state_dict_type", Severity::Warning, "$KEY takes a state dict type name", acc::state_dict_types()},
    {"transformer_layer_cls_to_wrap", Severity::Warning, "$KEY takes layer class names", {}},
};

// dynamo_config keys, named without the `dynamo_` prefix that accelerate adds when it is missing.
const StringKey kDynamo[] = {
    {"backend", Severity::Warning, "$KEY takes a dynamo backend name", acc::dynamo_backends()},
};

// DeepSpeed's offload devices (`none` is accelerate's default, src/accelerate/utils/dataclasses.py:1229-1244).
constexpr std::string_view kOffloadDevices[] = {"none", "cpu", "nvme"};

const StringKey kDeepSpeed[] = {
    {"offload_optimizer_device", Severity::Warning, "$KEY takes a device name", kOffloadDevices},
    {"offload_param_device", Severity::Warning, "$KEY takes a device name", kOffloadDevices},
    {"deepspeed_multinode_launcher", Severity::Warning, "$KEY takes a launcher name", acc::multinode_launchers()},
};

const StringKey kAxolotl[] = {
    {"adapter", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"optimizer", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"lr_scheduler", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"chat_template", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"base_model", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"tokenizer_type", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"model_type", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"output_dir", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"wandb_mode", Severity::Warning, "axolotl expects a string for $KEY", {}},
    {"wandb_project", Severity::Warning, "axolotl expects a string for $KEY", {}},
};

// TrainingArguments strategies (`no`, `steps`, `epoch`, `best`): whichever reader passes the YAML on (HfArgumentParser,
// TRL's --config, LLaMA-Factory's OmegaConf loader, which all read `no` as false), `TrainingArguments.__post_init__`
// calls `IntervalStrategy(False)` / `SaveStrategy(False)`, which raises ValueError (transformers
// src/transformers/training_args.py, `__post_init__`; src/transformers/trainer_utils.py, `ExplicitEnum._missing_`).
constexpr std::string_view kIntervalStrategies[] = {"no", "steps", "epoch"};
constexpr std::string_view kSaveStrategies[] = {"no", "steps", "epoch", "best"};
constexpr std::string_view kTrainerStrategy =
    "TrainingArguments turns $KEY into an IntervalStrategy and raises ValueError (False is not a valid "
    "IntervalStrategy)";

const StringKey kTrainerArgs[] = {
    {"eval_strategy", Severity::Error, kTrainerStrategy, kIntervalStrategies},
    {"evaluation_strategy", Severity::Error, kTrainerStrategy, kIntervalStrategies},
    {"logging_strategy", Severity::Error, kTrainerStrategy, kIntervalStrategies},
    {"save_strategy", Severity::Error,
     "TrainingArguments turns $KEY into a SaveStrategy and raises ValueError (False is not a valid SaveStrategy)",
     kSaveStrategies},
};

// axolotl's pydantic model types these `str | None`; pydantic does not coerce a bool to a string.
const StringKey kAxolotlStrategies[] = {
    {"eval_strategy", Severity::Error, "axolotl's config validation rejects a bool for $KEY", kIntervalStrategies},
    {"save_strategy", Severity::Error, "axolotl's config validation rejects a bool for $KEY", kSaveStrategies},
};

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string join(std::span<const std::string_view> items, std::size_t at_most) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < at_most; ++i) out += (i == 0 ? "" : ", ") + std::string(items[i]);
  if (items.size() > at_most) out += ", ...";
  return out;
}

/// An explicit `!!bool` tag asks for the bool; the tree drops core tags, the source text keeps them.
bool written_with_tag(const model::Document& doc, const parse::Node& node) {
  std::string_view text = doc.source->text();
  if (node.region.begin_byte >= text.size()) return false;
  text = text.substr(node.region.begin_byte, node.region.end_byte - node.region.begin_byte);
  if (text.starts_with('&')) {
    const std::size_t space = text.find_first_of(" \t\r\n");
    if (space == std::string_view::npos) return false;
    text.remove_prefix(space);
    text.remove_prefix(std::min(text.size(), text.find_first_not_of(" \t\r\n")));
  }
  return text.starts_with('!');
}

bool is_implicit_bool(const model::Document& doc, const parse::Node& n) {
  return n.kind == parse::NodeKind::Bool && n.plain && !written_with_tag(doc, n);
}

/// Where to report a value: the value itself, or the key when the value comes from an alias to an earlier anchor.
const source::Region& site(const parse::Entry& e) {
  return e.value.region.begin_byte < e.key.region.begin_byte ? e.key.region : e.value.region;
}

std::string_view strip_prefix(std::string_view key, std::string_view prefix) {
  return key.starts_with(prefix) ? key.substr(prefix.size()) : key;
}

class YamlImplicitBool final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.format != parse::Format::Yaml) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;
    if (doc.kind == model::DocKind::AxolotlConfig) {
      check_section(doc, *root, kAxolotl, "", ctx);
      check_section(doc, *root, kAxolotlStrategies, "", ctx);
      return;
    }
    if (doc.kind == model::DocKind::TrainerArgsConfig || doc.kind == model::DocKind::LlamaFactoryConfig) {
      check_section(doc, *root, kTrainerArgs, "", ctx);
      return;
    }
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    check_section(doc, *root, kAccelerateTop, "", ctx);
    // Unquoted NO (false) launches non-distributed, as meant; true names no distributed type.
    for (const parse::Entry& e : root->entries) {
      if (e.key.text != "distributed_type" || !is_implicit_bool(doc, e.value) || !e.value.boolean) continue;
      ctx.report(doc.path(), site(e),
                 "Unquoted `" + e.value.text + "` is the boolean true in YAML 1.1 (PyYAML), not the string '" +
                     e.value.text +
                     "': `distributed_type` takes a DistributedType name (NO, MULTI_GPU, FSDP, DEEPSPEED, ...), and "
                     "true is none of them; write the type you mean.",
                 {}, Severity::Error);
    }
    if (const parse::Node* fsdp = root->find("fsdp_config"); fsdp != nullptr && fsdp->is_map())
      check_section(doc, *fsdp, kFsdp, "fsdp_", ctx);
    if (const parse::Node* dyn = root->find("dynamo_config"); dyn != nullptr && dyn->is_map())
      check_section(doc, *dyn, kDynamo, "dynamo_", ctx);
    if (const parse::Node* ds = root->find("deepspeed_config"); ds != nullptr && ds->is_map())
      check_section(doc, *ds, kDeepSpeed, "", ctx);
  }

 private:
  static void check_section(const model::Document& doc, const parse::Node& map, std::span<const StringKey> keys,
                            std::string_view prefix, rule::RuleContext& ctx) {
    for (const parse::Entry& e : map.entries) {
      const std::string_view name = strip_prefix(e.key.text, prefix);
      const auto k = std::find_if(keys.begin(), keys.end(), [&](const StringKey& s) { return s.name == name; });
      if (k == keys.end() || !is_implicit_bool(doc, e.value)) continue;
      const parse::Node& v = e.value;
      const auto choice =
          std::find_if(k->choices.begin(), k->choices.end(), [&](std::string_view c) { return iequals(c, v.text); });
      const bool quoted_is_valid = k->choices.empty() || choice != k->choices.end();
      // A lower-case choice is spelled as accepted (TrainingArguments compares its enums exactly); accelerate
      // upper-cases its own names, so the user's spelling stays.
      const bool lower_choice = choice != k->choices.end() &&
                                std::none_of(choice->begin(), choice->end(), [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; });
      std::string fix = "quote it: '" + (lower_choice ? std::string(*choice) : v.text) + "'.";
      if (!quoted_is_valid) {
        fix = "quoted, '" + v.text + "' is not a valid value either: use one of " + join(k->choices, 7) + ".";
      }
      std::string consequence(k->consequence);
      if (const std::size_t at = consequence.find("$KEY"); at != std::string::npos)
        consequence.replace(at, 4, "`" + e.key.text + "`");
      // Quoting writes the string the file spells; only when that string is a valid value, and not through an
      // alias (the anchor is fixed where it is written).
      rule::Fix quote;
      if (quoted_is_valid && &site(e) == &v.region) {
        if (auto edit = fixes::replace_scalar(doc, v.region, "\"" + v.text + "\""))
          quote = fixes::make_fix("Quote `" + v.text + "`", rule::FixSafety::Safe, {std::move(*edit)});
      }
      ctx.report_fix(doc.path(), site(e),
                     "Unquoted `" + v.text + "` is the boolean " + (v.boolean ? "true" : "false") +
                         " in YAML 1.1 (PyYAML), not the string '" + v.text + "': " + consequence + "; " + fix,
                     std::move(quote), {}, k->severity);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_yaml_implicit_bool() {
  return std::make_unique<YamlImplicitBool>();
}

}  // namespace lint::rules
