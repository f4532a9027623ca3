// DS005: a deprecated DeepSpeed key (and the assertion when it is given together with its replacement).
#include "rules/deepspeed/support.hpp"

namespace lint::rules {
namespace {

struct Deprecated {
  std::string_view key;
  std::string_view replacement;      ///< for the message
  std::string_view replacement_key;  ///< the key whose presence makes DeepSpeed assert (empty: none)
  std::string_view alias;            ///< another spelling of that key
};
constexpr Deprecated kDeprecated[] = {
    {"cpu_offload", "`offload_optimizer: {\"device\": \"cpu\"}`", "offload_optimizer", ""},
    {"cpu_offload_param", "`offload_param: {\"device\": \"cpu\"}`", "offload_param", ""},
    {"cpu_offload_use_pin_memory", "`pin_memory` of `offload_param` / `offload_optimizer`", "", ""},
    {"stage3_gather_fp16_weights_on_model_save", "`stage3_gather_16bit_weights_on_model_save`",
     "stage3_gather_16bit_weights_on_model_save", "gather_16bit_weights_on_model_save"},
};

class DeprecatedDeepspeedKey final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::DeepSpeedConfig || doc.root_map() == nullptr) return;
    const parse::Entry* zo = doc.root_map()->find_entry("zero_optimization");
    if (zo == nullptr) return;
    if (zo->value.kind == parse::NodeKind::Bool) {
      ctx.report(doc.path(), zo->value.region,
                 "A boolean `zero_optimization` is the deprecated form (DeepSpeed warns and reads `true` as stage 1, " +
                     ds_cite("deepspeed/runtime/zero/config.py:60-78") +
                     "). Write `\"zero_optimization\": {\"stage\": 1}`.");
      return;
    }
    if (!zo->value.is_map()) return;
    for (const Deprecated& d : kDeprecated) {
      const parse::Entry* e = zo->value.find_entry(d.key);
      if (e == nullptr) continue;
      const parse::Entry* repl = d.replacement_key.empty() ? nullptr : zo->value.find_entry(d.replacement_key);
      if (repl == nullptr && !d.alias.empty()) repl = zo->value.find_entry(d.alias);
      if (repl != nullptr) {
        ctx.report(doc.path(), e->key.region,
                   "Deprecated `" + e->key.text + "` together with its replacement `" + repl->key.text +
                       "`: DeepSpeed asserts \"Cannot provide deprecated parameter '" + std::string(d.key) +
                       "' and replacing parameter ... together\" when it reads the config (" +
                       ds_cite("deepspeed/runtime/config_utils.py:84-91") + "). Remove `" + e->key.text + "`.",
                   {{doc.path(), repl->key.region, "The replacement is set here."}}, rule::Severity::Error);
        continue;
      }
      ctx.report(doc.path(), e->key.region,
                 "`" + e->key.text + "` is deprecated (DeepSpeed warns \"Config parameter " + e->key.text +
                     " is deprecated\", " + ds_cite("deepspeed/runtime/zero/config.py:181-213, 278-284") + "); use " +
                     std::string(d.replacement) + ".");
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deprecated_deepspeed_key() {
  return std::make_unique<DeprecatedDeepspeedKey>();
}

}  // namespace lint::rules
