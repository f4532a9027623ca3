// FSDP002: a setting given different values in two sources of one launch; reported where the losing value is
// written, with the winning one as a related location.
#include <set>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::Origin;

bool same_value(const model::Value& a, const model::Value& b) {
  if (a.kind == model::ValueKind::Unknown || b.kind == model::ValueKind::Unknown) return true;  // can't tell
  return a.display() == b.display();
}

std::string describe(const model::Setting& s) {
  if (s.origin == Origin::Default) return s.note;
  return "`" + s.spelled + "` (" + where(s) + ")";
}

class OverriddenSetting final : public rule::Rule {
  /// A Trainer script linted alone under FSDP1: its strategy word (`fsdp="shard_grad_op"`) is passed as
  /// `reshard_after_forward`, which FSDP1 never reads, so the strategy is whatever the launcher exports, FULL_SHARD
  /// when it exports none. No launch is known to say which: a warning, not the error of a bound launch.
  static void check_lone_fsdp1_word(const model::Launch& l, rule::RuleContext& ctx) {
    if (l.fsdp_version() != 1) return;
    const model::Effective* e = l.get(model::keys::kShardingStrategy);
    if (e != nullptr && e->decided_by != nullptr) return;
    for (const model::Setting* s : l.assignments(model::keys::kShardingStrategy)) {
      if (s->source != model::SourceKind::TrainerFsdp1StrategyWord || s->value.kind != model::ValueKind::String ||
          s->value.text == "FULL_SHARD" || s->path.empty())
        continue;
      ctx.report(s->path, s->region,
                 "Under FSDP1 the Trainer passes `fsdp=" + s->written.display() +
                     "` as `reshard_after_forward`, which FSDP1 never reads: the sharding strategy comes from the "
                     "launcher (`fsdp_sharding_strategy` in its accelerate config), and is FULL_SHARD when it sets "
                     "none, not " +
                     s->value.text +
                     ". Set the strategy in the launcher's config, or use FSDP2 (fsdp_config version 2), where the "
                     "word is read.",
                 {}, rule::Severity::Warning, std::string(model::keys::kShardingStrategy));
    }
  }

 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file) {
      check_lone_fsdp1_word(l, ctx);
      return;
    }
    static const std::set<std::string_view> kDerived = {model::keys::kFsdpEnabled, model::keys::kWorldSize};
    static const std::set<std::string_view> kCritical = {model::keys::kShardingStrategy, model::keys::kFsdpVersion,
                                                         model::keys::kDistributedType,
                                                         model::keys::kReshardAfterForward};
    for (const auto& [key, e] : l.effective()) {
      if (kDerived.count(key) != 0 || e.decided_by == nullptr) continue;
      const model::Setting& winner = *e.decided_by;
      for (const model::Setting* loser : e.overridden) {
        if (loser->origin == Origin::Default || loser->path.empty()) continue;
        if (same_value(loser->value, winner.value)) continue;
        // Two calls' own defaults (`DPOConfig(...) default` under `TrainingArguments(...) default`, the latter from a
        // command line whose parser class may derive from TrainingArguments): neither is written, so there is
        // nothing to remove, and which object the Trainer gets is the script's business, not a setting's.
        if (model::is_call_default(*loser) && model::is_call_default(winner)) continue;
        // PEFT's recipe (`fsdp_plugin.auto_wrap_policy = fsdp_auto_wrap_policy(model)`) builds on the config's
        // layer-class policy instead of replacing it: PEFT wraps the layers named by FSDP_TRANSFORMER_CLS_TO_WRAP,
        // which the config exports, and adds units for the trainable leaves (peft src/peft/utils/other.py,
        // `fsdp_auto_wrap_policy`).
        if (key == model::keys::kAutoWrapPolicy && winner.written.kind == model::ValueKind::Object &&
            winner.written.text.ends_with("fsdp_auto_wrap_policy"))
          continue;
        // `mixed_precision: 'no'` in an accelerate config with the Trainer's `bf16=True` / `fp16=True`: the config
        // states no precision of its own and the Trainer's flag is how the recipe chooses one (peft's QLoRA + FSDP
        // example); the launch does what the script says.
        if (key == model::keys::kMixedPrecision && loser->value.kind == model::ValueKind::String &&
            loser->value.text == "no" && model::source_kind_of(winner) == model::SourceKind::TrainerArgument)
          continue;
        // An explicit `accelerate launch` flag over the config file is the documented way to override it
        // (intended); a paradigm flag turning FSDP off is FSDP015's business.
        if (winner.origin == Origin::LaunchFlag && loser->origin == Origin::ConfigFile) continue;
        if (loser->origin == winner.origin && loser->path == winner.path) continue;  // YML003/DS004 cover repeats
        const bool critical = kCritical.count(key) != 0;
        std::string message;
        if (loser->source == model::SourceKind::TrainerFsdp1StrategyWord) {
          message = "Under FSDP1 the Trainer passes `fsdp=" + loser->written.display() +
                    "` as `reshard_after_forward`, which FSDP1 never reads: the effective strategy is " +
                    winner.value.display() + " from " + describe(winner) +
                    ". Set the strategy there (fsdp_sharding_strategy), or use FSDP2 (fsdp_config version 2).";
        } else if (loser->source == model::SourceKind::EnvOverwrittenByLauncher) {
          message = "`" + loser->spelled + "=" + loser->written.text +
                    "` is overwritten: `accelerate launch` always "
                    "exports it, here as " +
                    winner.value.display() + " from " + describe(winner) +
                    ". Set it in the config file or with an `--fsdp_*` flag instead.";
        } else {
          message = "`" + loser->spelled + "` sets " + std::string(key) + " to " + loser->value.display() + ", but " +
                    describe(winner) + " sets " + winner.value.display() + ", which wins" +
                    (e.reason.empty() ? std::string(".") : ": " + e.reason + ".") +
                    " Remove one of them so the launch says what it does.";
        }
        ctx.report(loser->path, loser->region, std::move(message),
                   related_to(&winner, "The effective value " + winner.value.display() + " comes from here."),
                   critical ? std::optional<rule::Severity>(rule::Severity::Error) : std::nullopt, std::string(key));
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_overridden_setting() {
  return std::make_unique<OverriddenSetting>();
}

}  // namespace lint::rules
