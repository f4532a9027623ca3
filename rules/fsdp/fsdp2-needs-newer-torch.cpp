// FSDP018: FSDP2 requested through accelerate (its config, flags, plugin or the HF Trainer) while the project pins a
// torch older than accelerate's FSDP2 minimum: FullyShardedDataParallelPlugin raises ImportError.
#include "lint/model/versions.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::Version;

/// Who asks accelerate for FSDP2: its config file, launcher flags or environment, a plugin in the script, the
/// Trainer. A bare `fully_shard` call, torchtitan and Lightning do not go through accelerate's check.
bool through_accelerate(const model::Setting& s) {
  switch (s.origin) {
    case model::Origin::ConfigFile:
    case model::Origin::LaunchFlag:
    case model::Origin::Environment:
    case model::Origin::PluginObject:
    case model::Origin::TrainingArguments:
    case model::Origin::TrainerFsdpConfig:
      return true;
    default:
      return false;
  }
}

class Fsdp2NeedsNewerTorch final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled() || l.fsdp_version() != 2) return;
    const model::Effective* e = l.get(model::keys::kFsdpVersion);
    if (e == nullptr || e->decided_by == nullptr) return;
    const model::Setting& s = *e->decided_by;
    if (s.path.empty() || !through_accelerate(s)) return;
    const model::TargetVersions& tv = model::target_versions();
    const model::AssumedVersion& torch = tv.get("torch");
    if (torch.is_default) return;  // no pin known
    // The Trainer's FSDP2 default (no version written) is only as sure as the transformers version it comes from.
    if (s.origin == model::Origin::TrainingArguments && !s.written.known() && tv.get("transformers").is_default)
      return;
    // accelerate checks torch >= FSDP2_PYTORCH_VERSION: "2.5.1" in 1.6.x, "2.6.0" from 1.7.0 (constants.py); before
    // 1.6.0 there is no FSDP2 at all (and no check).
    const model::AssumedVersion& acc = tv.get("accelerate");
    std::optional<Version> minimum;
    if (tv.at_least("accelerate", Version{1, 7, 0}) && tv.before("torch", Version{2, 6, 0})) minimum = Version{2, 6, 0};
    else if (tv.at_least("accelerate", Version{1, 6, 0}) && tv.before("torch", Version{2, 5, 1})) minimum = Version{2, 5, 1};
    if (!minimum) return;
    const bool implicit = !s.written.known();
    std::string message = "FSDP2 is requested" +
                          std::string(implicit ? " (the Trainer's default from transformers 5.10)" : "") +
                          " but the project pins torch " + torch.display() + " (" + torch.origin + ": " +
                          torch.written + "): accelerate " + acc.display() +
                          " raises ImportError \"FSDP2 requires PyTorch >= " + minimum->str() +
                          (minimum->patch == 0 ? ".0" : "") +
                          "\" when it builds the FSDP plugin. Upgrade torch, or use fsdp_version 1.";
    ctx.report(s.path, s.region, std::move(message), {}, std::nullopt, std::string(model::keys::kFsdpVersion));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_fsdp2_needs_newer_torch() { return std::make_unique<Fsdp2NeedsNewerTorch>(); }

}  // namespace lint::rules
