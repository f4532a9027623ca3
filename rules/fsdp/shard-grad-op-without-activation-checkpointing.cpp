// FSDP001: the effective strategy keeps parameters gathered from forward to backward and nothing checkpoints
// activations, so peak memory is about DDP's.
#include <cstdio>

#include "lint/memory/estimate.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

class ShardGradOpWithoutActivationCheckpointing final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.fsdp_enabled()) return;
    const model::Setting* site = nullptr;
    const auto keeps = model::query::keeps_params_unsharded(l, &site);
    if (!keeps || !*keeps || site == nullptr || site->origin == model::Origin::Default) return;
    if (const auto ws = l.world_size(); ws && *ws == 1) return;
    const auto ac = model::query::activation_checkpointing(l);
    // A script linted alone: its launcher is not known, and only that launcher could still turn FSDP's own
    // checkpointing on (FSDP_ACTIVATION_CHECKPOINTING). An unknown world size is not one process, and an unknown
    // launcher is not a checkpointing one: report, and say what would change it.
    const bool launcher_unknown =
        ac.state == model::query::CheckpointingState::State::Unknown && ac.unknown_from_launcher_only;
    if (ac.state != model::query::CheckpointingState::State::Off && !launcher_unknown) return;

    const bool v2 = l.fsdp_version() == 2;
    // The figures are rows sgo_ac0/sgo_ac1 and fs_ac0/fs_ac1 of docs/measurements/fsdp-7b-lora.md (FSDP2: f2raf0_ac0,
    // f2raf1_ac0/f2raf1_ac1 agree to 0.3 GiB); tests/snapshots/ holds every message, so a changed figure fails there.
    // The Trainer's own words: `fsdp="shard_grad_op ..."` is reshard_after_forward=False under FSDP2.
    const bool trainer = site->origin == model::Origin::TrainingArguments;
    const bool trainer_word = trainer && site->written.kind == model::ValueKind::String;
    const std::string what = trainer_word && v2 ? "`fsdp=\"" + site->written.text +
                                                      "\"` (under FSDP2, `reshard_after_forward=False`)"
                             : v2 ? "`reshard_after_forward=False`"
                                  : "`" + site->value.text + "`";
    const std::string alternative = v2 ? "reshard_after_forward=True" : "FULL_SHARD";
    std::string message = what + " keeps every parameter unsharded from forward until backward, and no "
                          "activation checkpointing is enabled in this launch: peak memory is about that of DDP ";
    // With the launched model known, the estimate for this launch (docs/memory.md); otherwise the measured example.
    const memory::TrainingShape& shape = memory::read_training_shape(l);
    const memory::Estimate here = memory::estimate_launch(shape);
    const memory::Estimate full = memory::estimate_launch(shape, v2 ? "true" : "FULL_SHARD");
    if (here.available && full.available && here.peak > full.peak) {
      auto gib = [](double b) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f", b / (1024.0 * 1024.0 * 1024.0));
        return std::string(buf);
      };
      message += "(estimated for this launch: ~" + gib(here.peak) + " GiB per GPU; it keeps ~" +
                 gib(here.peak - full.peak) + " GiB more per GPU here than " + alternative;
      // Unknown inputs are listed as `name (range; value assumed)`: quote `name value`.
      std::string assumed;
      for (const std::string& u : here.unknowns) {
        const auto open = u.find(" (");
        const auto semi = u.find("; ");
        const auto end = u.find(" assumed)");
        if (open == std::string::npos || semi == std::string::npos || end == std::string::npos || end < semi) continue;
        assumed += (assumed.empty() ? "" : ", ") + u.substr(0, open) + " " + u.substr(semi + 2, end - semi - 2);
      }
      if (!assumed.empty()) message += ", assuming " + assumed;
      message += "; `launchlint explain --memory` shows the breakdown).";
    } else {
      message += "(measured on a 7B LoRA, 8 ranks: 23.6 GiB per GPU vs 11.9 GiB with " + alternative +
                 "; 15.5 vs 3.8 GiB with checkpointing).";
    }
    message += " Use " +
               std::string(trainer_word ? "`full_shard`" : v2 ? "`reshard_after_forward: true`" : "FULL_SHARD") +
               std::string(trainer ? " or enable FSDP's activation checkpointing (`\"activation_checkpointing\": true` "
                                     "in fsdp_config; `gradient_checkpointing=True` would add a second all-gather in "
                                     "backward)."
                                   : " or enable activation checkpointing.");
    if (launcher_unknown)
      message += " (No launch of this script was found: an accelerate config with "
                 "`fsdp_activation_checkpointing: true` would turn checkpointing on.)";
    std::vector<rule::RelatedLocation> related;
    if (!l.per_file && l.command_document != nullptr && l.command_document->path() != site->path)
      related.push_back({l.command_document->path(), l.command_region, "The launch this configuration belongs to."});
    ctx.report(site->path, site->region, std::move(message), std::move(related), std::nullopt,
               std::string(site->key));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_shard_grad_op_without_activation_checkpointing() {
  return std::make_unique<ShardGradOpWithoutActivationCheckpointing>();
}

}  // namespace lint::rules
