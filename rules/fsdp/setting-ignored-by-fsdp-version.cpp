// FSDP003: an accelerate fsdp_config key that the effective FSDP version never reads, holding a value that differs
// from what is effective.
#include "rules/fix_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::ValueKind;

/// The FSDP2 reshard flag a strategy name corresponds to (accelerate's to-fsdp2 converter, to_fsdp2.py:51-66).
std::optional<bool> reshard_of_strategy(const model::Value& v) {
  if (v.kind != ValueKind::String) return std::nullopt;
  if (v.text == "FULL_SHARD" || v.text == "HYBRID_SHARD") return true;
  if (v.text == "SHARD_GRAD_OP" || v.text == "HYBRID_SHARD_ZERO2" || v.text == "NO_SHARD") return false;
  return std::nullopt;
}

/// The FSDP2 form of an FSDP1 `fsdp_sharding_strategy` in an accelerate config: the key renamed to
/// `fsdp_reshard_after_forward` (keeping the file's prefix style) and the strategy replaced by the flag that
/// accelerate's converter maps it to. Only when the file does not set the reshard key already. Unsafe: it changes
/// how FSDP2 shards.
rule::Fix fsdp2_form(const model::Launch& l, const model::Setting& s, bool reshard) {
  const model::Document* doc = fixes::document_at(l, s.path);
  const parse::Node* root = doc != nullptr ? doc->root_map() : nullptr;
  const parse::Node* fsdp = root != nullptr ? root->find("fsdp_config") : nullptr;
  if (fsdp == nullptr || !fsdp->is_map()) return {};
  if (fsdp->find("fsdp_reshard_after_forward") != nullptr || fsdp->find("reshard_after_forward") != nullptr) return {};
  for (const parse::Entry& e : fsdp->entries) {
    if (e.value.region != s.region) continue;
    if (e.key.text != "fsdp_sharding_strategy" && e.key.text != "sharding_strategy") return {};
    const std::string key = e.key.text.starts_with("fsdp_") ? "fsdp_reshard_after_forward" : "reshard_after_forward";
    auto k = fixes::replace_scalar(*doc, e.key.region, key);
    auto v = fixes::replace_scalar(*doc, e.value.region, reshard ? "true" : "false", true);
    if (!k || !v) return {};
    return fixes::make_fix("Replace `" + e.key.text + ": " + s.value.display() + "` with `" + key + ": " +
                               (reshard ? "true" : "false") + "`",
                           rule::FixSafety::Unsafe, {std::move(*k), std::move(*v)});
  }
  return {};
}

class SettingIgnoredByFsdpVersion final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    const auto version = l.fsdp_version();
    if (!version) return;
    const model::Setting* version_site = written_site(l, model::keys::kFsdpVersion);
    const std::string version_note =
        version_site != nullptr ? "FSDP version " + std::to_string(*version) + " is set here."
                                : "";
    if (*version == 1) {
      const model::Value& strategy = l.value(model::keys::kShardingStrategy);
      if (strategy.kind != ValueKind::String) return;
      const model::Setting* strategy_site = l.get(model::keys::kShardingStrategy)->decided_by;
      for (const model::Setting* s : l.assignments(model::keys::kReshardAfterForward)) {
        if (s->origin != model::Origin::ConfigFile) continue;
        const model::Value& v = s->value;
        std::string as_strategy;
        if (v.kind == ValueKind::String) as_strategy = v.text;
        if (v.kind == ValueKind::Bool) as_strategy = v.boolean ? "FULL_SHARD" : "SHARD_GRAD_OP";
        if (as_strategy == strategy.text) continue;
        const std::string from = strategy_site != nullptr && strategy_site->origin != model::Origin::Default
                                     ? "`" + strategy_site->spelled + "`"
                                     : "accelerate's default for `fsdp_sharding_strategy`";
        auto rel = related_to(strategy_site, "The effective strategy is decided here.");
        ctx.report(s->path, s->region,
                   "FSDP1 never reads `fsdp_reshard_after_forward`: the effective strategy is " + strategy.text +
                       " (from " + from + "), not " + (as_strategy.empty() ? v.display() : as_strategy) +
                       ". Under FSDP1 set `fsdp_sharding_strategy`, or use `fsdp_version: 2`.",
                   std::move(rel), std::nullopt, std::string(model::keys::kReshardAfterForward));
      }
      return;
    }
    // FSDP2: sharding_strategy and the FSDP1-only knobs are dropped (dataclasses.py:1836, 1895-1897, 1932-1948).
    const model::Value& reshard = l.value(model::keys::kReshardAfterForward);
    for (const model::Setting* s : l.assignments(model::keys::kShardingStrategy)) {
      if (s->origin != model::Origin::ConfigFile) continue;
      const auto as_reshard = reshard_of_strategy(s->value);
      if (as_reshard && reshard.kind == ValueKind::Bool && *as_reshard == reshard.boolean) continue;
      const std::string eff = reshard.kind == ValueKind::Bool ? (reshard.boolean ? "true" : "false") : "unknown";
      ctx.report_fix(s->path, s->region,
                     "FSDP2 never reads `fsdp_sharding_strategy` (" + s->value.display() +
                         "): sharding follows `fsdp_reshard_after_forward`, which is " + eff +
                         ". Set `fsdp_reshard_after_forward: " +
                         (as_reshard ? (*as_reshard ? "true" : "false") : "...") + "` instead.",
                     as_reshard ? fsdp2_form(l, *s, *as_reshard) : rule::Fix{}, related_to(version_site, version_note),
                     std::nullopt, std::string(model::keys::kShardingStrategy));
    }
    struct Obsolete {
      std::string_view key;
      std::string_view name;
      std::function<bool(const model::Value&)> same_as_effective;
    };
    const Obsolete obsolete[] = {
        {model::keys::kBackwardPrefetch, "fsdp_backward_prefetch",
         [](const model::Value& v) { return v.kind == ValueKind::String && v.text == "BACKWARD_PRE"; }},
        {model::keys::kForwardPrefetch, "fsdp_forward_prefetch",
         [](const model::Value& v) { return v.kind == ValueKind::Bool && !v.boolean; }},
        {model::keys::kUseOrigParams, "fsdp_use_orig_params",
         [](const model::Value& v) { return v.kind == ValueKind::Bool && v.boolean; }},
        {model::keys::kSyncModuleStates, "fsdp_sync_module_states",
         [](const model::Value& v) { return v.kind == ValueKind::Bool && v.boolean; }},
    };
    for (const Obsolete& o : obsolete) {
      for (const model::Setting* s : l.assignments(o.key)) {
        if (s->origin != model::Origin::ConfigFile || o.same_as_effective(s->value)) continue;
        ctx.report(s->path, s->region,
                   "FSDP2 ignores `" + std::string(o.name) + "` (" + s->value.display() +
                       "): the setting only exists in FSDP1, so this value has no effect. Remove it.",
                   related_to(version_site, version_note), std::nullopt, std::string(o.key));
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_setting_ignored_by_fsdp_version() {
  return std::make_unique<SettingIgnoredByFsdpVersion>();
}

}  // namespace lint::rules
