// FSDP005: wrap policy, prefetch, state dict type or version outside the accepted set; LOCAL_STATE_DICT or an
// explicit forward_prefetch under FSDP2; a min_num_params that is not an integer.
#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::ValueKind;
namespace acc = model::accelerate;

std::string join(std::span<const std::string_view> items) {
  std::string out;
  for (std::string_view s : items) out += (out.empty() ? "" : ", ") + std::string(s);
  return out;
}

class InvalidFsdpOption final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    choice(l, ctx, model::keys::kAutoWrapPolicy, acc::wrap_policies(), "auto wrap policy",
           "\"Invalid auto wrap policy\"");
    choice(l, ctx, model::keys::kBackwardPrefetch, acc::backward_prefetches(), "backward prefetch", "KeyError");
    choice(l, ctx, model::keys::kStateDictType, acc::state_dict_types(), "state dict type", "KeyError");
    for (const model::Setting* s : l.assignments(model::keys::kFsdpVersion)) {
      if (s->origin != model::Origin::ConfigFile && s->origin != model::Origin::PluginObject &&
          s->origin != model::Origin::LaunchFlag)
        continue;
      if (s->value.kind == ValueKind::Int && (s->value.integer == 1 || s->value.integer == 2)) continue;
      if (s->value.kind == ValueKind::Unknown) continue;
      ctx.report(s->path, s->region,
                 "`fsdp_version` must be 1 or 2, not " + s->written.display() +
                     ": the plugin then parses the reshard setting as an FSDP1 strategy and every rank fails "
                     "(KeyError).");
    }
    const auto version = l.fsdp_version();
    if (version == 2) {
      const model::Effective* sd = l.get(model::keys::kStateDictType);
      if (sd != nullptr && sd->decided_by != nullptr && sd->decided_by->origin != model::Origin::Default &&
          sd->value.kind == ValueKind::String && sd->value.text == "LOCAL_STATE_DICT") {
        ctx.report(sd->decided_by->path, sd->decided_by->region,
                   "FSDP2 does not support LOCAL_STATE_DICT: accelerate raises ValueError. Use SHARDED_STATE_DICT or "
                   "FULL_STATE_DICT.");
      }
      for (const model::Setting* s : l.assignments(model::keys::kForwardPrefetch)) {
        if (s->origin != model::Origin::PluginObject) continue;
        ctx.report(s->path, s->region,
                   "FSDP2 has no forward_prefetch: passing it to FullyShardedDataParallelPlugin (even False) raises "
                   "ValueError \"forward_prefetch is not yet implemented in FSDP2\". Remove the argument.");
      }
    }
    const model::Value& policy = l.value(model::keys::kAutoWrapPolicy);
    // Recorded by the oracle (docs/ground-truth.md, cases prep-v2-size-1000*): accelerate's FSDP2 size policy also
    // selects nn.ModuleList containers, which fully_shard rejects.
    if (version == 2 && policy.kind == ValueKind::String && policy.text == "SIZE_BASED_WRAP") {
      const model::Value& min = l.value(model::keys::kMinNumParams);
      const model::Setting* site = written_site(l, model::keys::kAutoWrapPolicy);
      if (site != nullptr && min.kind == ValueKind::Int && min.integer > 0) {
        ctx.report(site->path, site->region,
                   "SIZE_BASED_WRAP does not work with FSDP2: accelerate's size policy also picks nn.ModuleList "
                   "containers (such as the decoder layers) and `prepare()` raises ValueError \"fully_shard does not "
                   "support containers that do not implement forward: ModuleList\". Use TRANSFORMER_BASED_WRAP.",
                   {}, std::nullopt, std::string(model::keys::kAutoWrapPolicy));
      }
    }
    if (policy.kind == ValueKind::String && policy.text == "SIZE_BASED_WRAP") {
      for (const model::Setting* s : l.assignments(model::keys::kMinNumParams)) {
        if (s->origin == model::Origin::Default) continue;
        if (s->value.kind == ValueKind::Int || s->value.kind == ValueKind::Unknown) continue;
        const bool yaml = s->path.ends_with(".yaml") || s->path.ends_with(".yml");
        if (s->value.kind == ValueKind::String && yaml && s->value.text.find_first_of("eE") != std::string::npos)
          continue;  // e-notation read as a string by PyYAML: YML001 reports it (as an error) at this spot
        ctx.report(s->path, s->region,
                   "`min_num_params` must be an integer, not " + s->written.display() +
                       ": with SIZE_BASED_WRAP every rank fails in int(...). Write e.g. 100000000.");
      }
    }
  }

 private:
  static void choice(const model::Launch& l, rule::RuleContext& ctx, std::string_view key,
                     std::span<const std::string_view> choices, const char* what, const char* error) {
    for (const model::Setting* s : l.assignments(key)) {
      if (s->origin != model::Origin::ConfigFile && s->origin != model::Origin::PluginObject &&
          s->origin != model::Origin::TrainingArguments)
        continue;
      const model::Value& v = s->value;
      if (v.kind != ValueKind::String) continue;
      if (v.text == "CUSTOM") continue;
      // transformers compares auto_wrap_policy case-sensitively (training_args.py:2791-2794).
      const bool exact = s->origin == model::Origin::TrainingArguments;
      const bool ok = exact ? std::find(choices.begin(), choices.end(), v.text) != choices.end()
                            : acc::parse_choice(choices, v.text).has_value();
      if (ok) continue;
      std::string hint;
      if (auto ci = acc::parse_choice(choices, v.text)) hint = " transformers needs it upper-case: " + std::string(*ci) + ".";
      else if (auto best = acc::closest(v.text, choices); !best.empty()) hint = " Did you mean " + std::string(best) + "?";
      ctx.report(s->path, s->region,
                 "'" + v.text + "' is not a valid " + what + " (" + error + " in every rank). Accepted: " +
                     join(choices) + "." + hint,
                 {}, std::nullopt, std::string(key));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_invalid_fsdp_option() { return std::make_unique<InvalidFsdpOption>(); }

}  // namespace lint::rules
