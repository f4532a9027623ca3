// HF003: two sharding strategies in the Trainer's `fsdp` (`"full_shard shard_grad_op"`): the first wins, the
// rest are ignored without a word.
#include <cctype>
#include <string>

#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

bool is_strategy(const std::string& word) {
  return word == "full_shard" || word == "shard_grad_op" || word == "no_shard" || word == "hybrid_shard" ||
         word == "hybrid_shard_zero2";
}

class ConflictingFsdpOptions final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    for (const trainer::TrainerArgs& t : trainer::trainer_args(l)) {
      if (!t.fsdp_known || !t.fsdp_on) continue;
      std::string first;
      for (const std::string& w : t.words) {
        if (!is_strategy(w)) continue;
        if (first.empty()) {
          first = w;
          continue;
        }
        if (w == first) continue;
        // Under FSDP2 a hybrid or no_shard word raises instead (HF004).
        if (t.version == 2 && w != "full_shard" && w != "shard_grad_op") break;
        ctx.report(t.path, t.fsdp_region,
                   t.spelled + "'s fsdp names two sharding strategies, `" + first + "` and `" + w +
                       "`: TrainingArguments stores the first with setdefault and ignores the second without a "
                       "warning (older transformers raised \"`--fsdp full_shard` is not compatible with `--fsdp "
                       "shard_grad_op`\"), so the launch shards with `" +
                       first + "`. Keep only the strategy you mean.");
        break;
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_conflicting_fsdp_options() {
  return std::make_unique<ConflictingFsdpOptions>();
}

}  // namespace lint::rules
