// FSDP019: FSDP2 + accelerate's activation checkpointing + a wrap policy that selects nothing (NO_WRAP, the
// default, or SIZE_BASED_WRAP with min_num_params 0): prepare() calls a None policy and raises TypeError.
#include <charconv>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::ValueKind;


class Fsdp2ActivationCheckpointingWithoutWrapPolicy final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled() || l.fsdp_version() != 2) return;
    const model::Effective* ac = l.get(model::keys::kActivationCheckpointing);
    if (ac == nullptr || ac->value.kind != ValueKind::Bool || !ac->value.boolean) return;
    const model::Setting* ac_site = ac->decided_by;
    if (ac_site == nullptr || ac_site->origin == model::Origin::Default || ac_site->path.empty()) return;

    const model::Value& policy = l.value(model::keys::kAutoWrapPolicy);
    if (policy.kind != ValueKind::String) return;
    const bool no_wrap = policy.text == "NO_WRAP";
    const bool size_zero = policy.text == "SIZE_BASED_WRAP" && min_num_params_is_zero(l.value(model::keys::kMinNumParams));
    if (!no_wrap && !size_zero) return;

    const model::Setting* policy_site = written_site(l, model::keys::kAutoWrapPolicy);
    std::string cause;
    std::vector<rule::RelatedLocation> related;
    if (size_zero) {
      cause = "SIZE_BASED_WRAP with `min_num_params` 0 selects no module";
      related = related_to(policy_site, "the wrap policy is SIZE_BASED_WRAP here");
      const auto min = related_to(written_site(l, model::keys::kMinNumParams), "min_num_params is 0 here");
      related.insert(related.end(), min.begin(), min.end());
    } else if (policy_site != nullptr) {
      cause = "the wrap policy is NO_WRAP";
      related = related_to(policy_site, "the wrap policy is NO_WRAP here");
    } else {
      cause = "no `fsdp_auto_wrap_policy` is set, so accelerate uses NO_WRAP";
    }
    std::string message =
        "FSDP2 activation checkpointing needs a wrap policy to choose the layers to checkpoint, "
        "but " +
        cause +
        ": accelerate's FSDP2 policy function is then None and `prepare()` "
        "raises TypeError: 'NoneType' object is not callable. Use TRANSFORMER_BASED_WRAP (with "
        "`fsdp_transformer_layer_cls_to_wrap`, or the model's `_no_split_modules` when omitted).";
    ctx.report(ac_site->path, ac_site->region, std::move(message), std::move(related), std::nullopt,
               std::string(model::keys::kActivationCheckpointing));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_fsdp2_activation_checkpointing_without_wrap_policy() {
  return std::make_unique<Fsdp2ActivationCheckpointingWithoutWrapPolicy>();
}

}  // namespace lint::rules
