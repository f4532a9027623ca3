// ACC003: distributed_type, mixed_precision, compute_environment, dynamo backend or multinode launcher outside the
// accepted set (after PyYAML typing).
#include <algorithm>
#include <cctype>

#include "rules/fix_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

namespace acc = model::accelerate;

std::string join(std::span<const std::string_view> items) {
  std::string out;
  for (std::string_view s : items) out += (out.empty() ? "" : ", ") + std::string(s);
  return out;
}

class InvalidAccelerateValue final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::AccelerateConfig) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;
    const bool json = doc.format == parse::Format::Json;
    if (const parse::Node* n = root->find("distributed_type")) {
      // Unquoted NO (PyYAML False) launches non-distributed as meant; YML002 covers other YAML bools.
      const bool yaml_bool = n->kind == parse::NodeKind::Bool && !json;
      if (!yaml_bool && !(n->kind == parse::NodeKind::Bool && !n->boolean)) {
        exact(doc, ctx, *n, acc::distributed_types(), "distributed_type",
              "'" + n->text + "' is not a valid DistributedType");
      }
    }
    if (const parse::Node* n = root->find("compute_environment")) {
      if (!(n->kind == parse::NodeKind::Bool && !json))
        exact(doc, ctx, *n, acc::compute_environments(), "compute_environment", "not a valid ComputeEnvironment");
    }
    if (const parse::Node* n = root->find("mixed_precision")) {
      if (n->kind == parse::NodeKind::Bool && json) {
        ctx.report(doc.path(), n->region,
                   "`mixed_precision` is the boolean " + n->display() +
                       ": `accelerate launch` crashes with \"'bool' object has no attribute 'lower'\". Use one of \"no\", "
                       "\"fp16\", \"bf16\", \"fp8\".");
      } else if (n->kind != parse::NodeKind::Bool) {
        std::string lower = n->text;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
        if (n->kind != parse::NodeKind::String || !acc::parse_choice(acc::mixed_precisions(), lower)) {
          ctx.report(doc.path(), n->region,
                     "`mixed_precision: " + n->text + "` is not a precision accelerate knows (\"Unknown mixed_precision "
                     "mode\"): use one of " + join(acc::mixed_precisions()) + ".");
        }
      }
    }
    if (const parse::Node* dyn = root->find("dynamo_config"); dyn != nullptr && dyn->is_map()) {
      for (const char* key : {"dynamo_backend", "backend"}) {
        const parse::Node* n = dyn->find(key);
        if (n == nullptr || n->kind != parse::NodeKind::String) continue;
        if (!acc::parse_choice(acc::dynamo_backends(), n->text)) {
          ctx.report(doc.path(), n->region,
                     "`" + n->text + "` is not a dynamo backend accelerate knows (\"Unknown dynamo backend\"): use one "
                     "of " + join(acc::dynamo_backends()) + ".");
        }
      }
    }
    if (const parse::Node* ds = root->find("deepspeed_config"); ds != nullptr && ds->is_map()) {
      if (const parse::Node* n = ds->find("deepspeed_multinode_launcher"); n != nullptr) {
        if (n->kind != parse::NodeKind::String ||
            std::find(acc::multinode_launchers().begin(), acc::multinode_launchers().end(), n->text) ==
                acc::multinode_launchers().end()) {
          ctx.report(doc.path(), n->region,
                     "`deepspeed_multinode_launcher: " + n->text + "` is not one of " +
                         join(acc::multinode_launchers()) + ".");
        }
      }
    }
  }

 /// `accelerate launch --mixed_precision` takes argparse choices (launch.py:189-196).
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    for (const model::Setting* s : l.assignments(model::keys::kMixedPrecision)) {
      if (s->origin != model::Origin::LaunchFlag || s->value.kind != model::ValueKind::String) continue;
      const auto& mp = acc::mixed_precisions();
      if (std::find(mp.begin(), mp.end(), s->value.text) != mp.end()) continue;
      ctx.report(s->path, s->region,
                 "`--mixed_precision " + s->value.text + "` is not one of " + join(mp) +
                     ": `accelerate launch` exits with an argparse error (invalid choice).");
    }
  }

 private:
  static void exact(const model::Document& doc, rule::RuleContext& ctx, const parse::Node& n,
                    std::span<const std::string_view> choices, const std::string& key, const std::string& why) {
    if (n.kind == parse::NodeKind::String &&
        std::find(choices.begin(), choices.end(), n.text) != choices.end())
      return;
    std::string hint;
    std::string_view replacement;
    if (n.kind == parse::NodeKind::String) {
      if (auto exact_ci = acc::parse_choice(choices, n.text)) {
        hint = " Values are case-sensitive: write `" + std::string(*exact_ci) + "`.";
        replacement = *exact_ci;
      } else if (auto best = acc::closest(n.text, choices); !best.empty()) {
        hint = " Did you mean `" + std::string(best) + "`?";
        replacement = fixes::unambiguous(n.text, best, choices);
      }
    }
    if (hint.empty()) hint = " Accepted: " + join(choices) + ".";
    // Unsafe: the closest valid value is a guess at what was meant.
    rule::Fix fix;
    if (!replacement.empty()) fix = fixes::set_value(doc, n.region, n.text, replacement, rule::FixSafety::Unsafe);
    ctx.report_fix(doc.path(), n.region,
                   "`" + key + ": " + n.text + "`: " + why + " (accelerate raises ValueError)." + hint, std::move(fix));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_invalid_accelerate_value() { return std::make_unique<InvalidAccelerateValue>(); }

}  // namespace lint::rules
