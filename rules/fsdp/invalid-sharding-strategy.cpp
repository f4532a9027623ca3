// FSDP004: a sharding strategy that does not exist, or an FSDP2 reshard_after_forward that is not a boolean.
#include <array>

#include "rules/fix_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::ValueKind;
namespace acc = model::accelerate;

/// The one strategy `text` most likely means (an alias or an unambiguous typo), or empty.
std::string_view likely_strategy(std::string_view text) {
  std::string up(text);
  for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (up == "SHARD_OP" || up == "ZERO2" || up == "GRAD_OP") return "SHARD_GRAD_OP";
  if (up == "ZERO3" || up == "FULL") return "FULL_SHARD";
  return fixes::unambiguous(text, acc::closest(text, acc::sharding_strategies()), acc::sharding_strategies());
}

/// Replaces the strategy where it is written as a lone string (a config value or a keyword argument); unsafe: it
/// picks a strategy for the user.
rule::Fix strategy_fix(const model::Launch& l, const model::Setting& s, const std::string& shown) {
  if (s.value.kind != ValueKind::String || s.origin == model::Origin::LaunchFlag) return {};
  const std::string_view best = likely_strategy(shown);
  const model::Document* doc = fixes::document_at(l, s.path);
  if (best.empty() || doc == nullptr) return {};
  auto text = fixes::bytes_of(*doc, s.region);
  if (!text) return {};
  std::string_view inner = *text;
  if (inner.size() >= 2 && (inner.front() == '"' || inner.front() == '\'')) inner = inner.substr(1, inner.size() - 2);
  if (inner != shown) return {};
  return fixes::set_value(*doc, s.region, shown, best, rule::FixSafety::Unsafe);
}

std::string suggestion(std::string_view text) {
  std::string up(text);
  for (char& c : up) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (up == "SHARD_OP" || up == "ZERO2" || up == "GRAD_OP") return " Did you mean SHARD_GRAD_OP?";
  if (up == "ZERO3" || up == "FULL") return " Did you mean FULL_SHARD?";
  if (auto best = acc::closest(text, acc::sharding_strategies()); !best.empty())
    return " Did you mean " + std::string(best) + "?";
  return " Valid: FULL_SHARD, SHARD_GRAD_OP, NO_SHARD, HYBRID_SHARD, HYBRID_SHARD_ZERO2 (or 1-5).";
}

/// The FSDP version is decided by the plugin object itself (not by another mechanism in the same file).
bool version_from_plugin(const model::Launch& l) {
  const model::Effective* e = l.get(model::keys::kFsdpVersion);
  return e != nullptr && e->decided_by != nullptr &&
         (e->decided_by->origin == model::Origin::PluginObject || e->decided_by->origin == model::Origin::ConfigFile ||
          e->decided_by->origin == model::Origin::LaunchFlag || e->decided_by->origin == model::Origin::Default);
}

class InvalidShardingStrategy final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const auto version = l.fsdp_version();
    for (const model::Setting* s : l.assignments(model::keys::kShardingStrategy)) {
      if (s->origin == model::Origin::Default || s->origin == model::Origin::LightningStrategy) continue;
      // FSDP2 never parses the strategy (dataclasses.py:1836): a bad name there is dead, not fatal (FSDP003).
      if (version == 2 && s->origin != model::Origin::TorchCall) continue;
      const model::Value& v = s->value;
      if (v.kind == ValueKind::String && acc::parse_strategy(v.text)) continue;
      if (v.kind != ValueKind::String && v.kind != ValueKind::Int && v.kind != ValueKind::Enum &&
          v.kind != ValueKind::Bool)
        continue;
      const std::string shown = v.kind == ValueKind::Bool ? v.display() : v.text;
      ctx.report_fix(s->path, s->region,
                     "`" + shown + "` is not a ShardingStrategy: every rank fails when FSDP is set up (" +
                         (v.kind == ValueKind::Int    ? std::string("ValueError")
                          : v.kind == ValueKind::Enum ? std::string("AttributeError")
                                                      : std::string("KeyError")) +
                         ")." + suggestion(shown),
                     strategy_fix(l, *s, shown), {}, std::nullopt, std::string(s->key));
    }
    for (const model::Setting* s : l.assignments(model::keys::kReshardAfterForward)) {
      if (s->origin == model::Origin::Default) continue;
      const model::Value& v = s->value;
      if (version == 2 && (s->origin == model::Origin::ConfigFile || s->origin == model::Origin::PluginObject) &&
          v.kind != ValueKind::Bool && v.kind != ValueKind::Unknown) {
        std::string fix = "true or false";
        if (v.kind == ValueKind::String) {
          if (acc::keeps_params_between_passes(v.text) || v.text == "NO_SHARD") fix = "false";
          else if (v.text == "FULL_SHARD" || v.text == "HYBRID_SHARD") fix = "true";
        }
        ctx.report(s->path, s->region,
                   "Under FSDP2 `reshard_after_forward` must be a boolean, not " + s->written.display() +
                       ": accelerate raises ValueError (\"invalid truth value\" / \"not supported with FSDP2\"). "
                       "Write " + fix + ".",
                   {}, std::nullopt, std::string(s->key));
      } else if (version == 1 && s->origin == model::Origin::PluginObject && v.kind == ValueKind::Bool &&
                 version_from_plugin(l)) {
        ctx.report(s->path, s->region,
                   "Under FSDP1 `reshard_after_forward` must be a ShardingStrategy, not the boolean " + v.display() +
                       ": accelerate raises ValueError (\"not supported with FSDP1\"). Pass "
                       "`sharding_strategy=` or use `fsdp_version=2`.",
                   {}, std::nullopt, std::string(s->key));
      }
    }
  }

  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind == model::DocKind::TorchtitanConfig) check_torchtitan(doc, ctx);
    if (doc.kind == model::DocKind::PythonScript && doc.python) check_lightning(doc, ctx);
  }

 private:
  static void check_torchtitan(const model::Document& doc, rule::RuleContext& ctx) {
    const parse::Node* root = doc.root_map();
    const parse::Node* par = root != nullptr ? root->find("parallelism") : nullptr;
    const parse::Node* v = par != nullptr && par->is_map() ? par->find("fsdp_reshard_after_forward") : nullptr;
    if (v == nullptr) return;
    if (v->kind == parse::NodeKind::String && (v->text == "default" || v->text == "always" || v->text == "never"))
      return;
    ctx.report(doc.path(), v->region,
               "torchtitan's `fsdp_reshard_after_forward` takes \"default\", \"always\" or \"never\", not " +
                   v->display() + ": parallelize raises ValueError on every rank.");
  }

  static void check_lightning(const model::Document& doc, rule::RuleContext& ctx) {
    // Lightning resolves strings with ShardingStrategy[s.upper()] (fabric fsdp.py:872).
    static constexpr std::array<std::string_view, 5> kMembers = {"FULL_SHARD", "SHARD_GRAD_OP", "NO_SHARD",
                                                                 "HYBRID_SHARD", "_HYBRID_SHARD_ZERO2"};
    for (const model::PyCall* c : doc.python->calls_named("FSDPStrategy")) {
      const model::PyArg* a = c->keyword("sharding_strategy");
      if (a == nullptr || a->value.kind != ValueKind::String) continue;
      std::string up = a->value.text;
      for (char& ch : up) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      if (std::find(kMembers.begin(), kMembers.end(), up) != kMembers.end()) continue;
      std::string hint = up == "HYBRID_SHARD_ZERO2" ? " torch's member is `_HYBRID_SHARD_ZERO2` (leading underscore)."
                                                    : suggestion(a->value.text);
      ctx.report(doc.path(), a->value.region,
                 "Lightning's FSDPStrategy looks strategies up as `ShardingStrategy[name.upper()]`: '" + a->value.text +
                     "' raises KeyError." + hint);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_invalid_sharding_strategy() { return std::make_unique<InvalidShardingStrategy>(); }

}  // namespace lint::rules
