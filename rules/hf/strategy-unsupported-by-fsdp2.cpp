// HF004: a Trainer `fsdp` strategy word FSDP2 cannot express (`hybrid_shard`, `hybrid_shard_zero2`, `no_shard`, or
// an upper-case spelling) while the Trainer uses FSDP2, its default from transformers 5.
#include <cctype>
#include <string>

#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

bool is_strategy(const std::string& word) {
  const std::string u = upper(word);
  return u == "FULL_SHARD" || u == "SHARD_GRAD_OP" || u == "NO_SHARD" || u == "HYBRID_SHARD" ||
         u == "HYBRID_SHARD_ZERO2";
}

class StrategyUnsupportedByFsdp2 final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    for (const trainer::TrainerArgs& t : trainer::trainer_args(l)) {
      if (!t.fsdp_known || !t.fsdp_on || t.version != 2) continue;
      for (const std::string& w : t.words) {
        // FSDP2 maps only the exact words full_shard / shard_grad_op (compared with FSDPOption's lower-case values).
        if (!is_strategy(w) || w == "full_shard" || w == "shard_grad_op") continue;
        const std::string u = upper(w);
        std::string fix;
        if (u == "FULL_SHARD" || u == "SHARD_GRAD_OP") {
          fix = " Write it in lower case: `" + std::string(u == "FULL_SHARD" ? "full_shard" : "shard_grad_op") + "`.";
        } else if (u == "NO_SHARD") {
          fix = " Without sharding, use DDP (drop `fsdp`).";
        } else {
          fix =
              " FSDP2 expresses hybrid sharding with a 2-D device mesh; or set `fsdp_config={\"version\": 1}` "
              "(deprecated).";
        }
        ctx.report(t.path, t.fsdp_region,
                   "`" + w + "` in " + t.spelled +
                       "'s fsdp with FSDP2 (the Trainer's default from transformers 5, fsdp_config version 2): "
                       "TrainingArguments raises ValueError \"`fsdp=" +
                       w + "` is only available with FSDP1\" when it is built." + fix);
        break;
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_strategy_unsupported_by_fsdp2() {
  return std::make_unique<StrategyUnsupportedByFsdp2>();
}

}  // namespace lint::rules
