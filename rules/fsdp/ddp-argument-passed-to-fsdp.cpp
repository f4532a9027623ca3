// FSDP013: a DistributedDataParallel-only keyword given to an FSDP constructor (TypeError), or a Trainer `ddp_*`
// argument next to `fsdp` (ignored).
#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string_view>

#include "lint/model/torch/torch.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::ValueKind;

/// Keywords of torch's DistributedDataParallel that no FSDP entry point accepts.
constexpr std::array<std::string_view, 5> kDdpOnly = {"bucket_cap_mb", "find_unused_parameters", "broadcast_buffers",
                                                      "gradient_as_bucket_view", "static_graph"};
/// TrainingArguments fields the Trainer hands only to DistributedDataParallel.
constexpr std::array<std::string_view, 3> kTrainerDdp = {"ddp_bucket_cap_mb", "ddp_find_unused_parameters",
                                                         "ddp_broadcast_buffers"};

bool contains(std::span<const std::string_view> list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

/// torch's FullyShardedDataParallel / fully_shard or accelerate's plugin, not a method of the user's own objects.
bool is_fsdp_entry_point(const model::PyCall& c) {
  if (c.name == "FullyShardedDataParallel" || c.name == "fully_shard") return model::torch::is_torch_fsdp_call(c);
  return c.name == "FullyShardedDataParallelPlugin" && (c.callee == c.name || c.callee.starts_with("accelerate."));
}

bool is_training_arguments(const model::PyCall& c) {
  if (c.name == "TrainingArguments" || c.name == "Seq2SeqTrainingArguments") return true;
  // TRL's configs (SFTConfig, DPOConfig, ...) derive from TrainingArguments.
  return c.callee.starts_with("trl.") && c.name.ends_with("Config");
}

/// `fsdp=` as TrainingArguments reads it: a non-empty string or list, or True. nullopt when not known.
std::optional<bool> fsdp_on(const model::Value& v) {
  switch (v.kind) {
    case ValueKind::Bool:
      return v.boolean;
    case ValueKind::None:
      return false;
    case ValueKind::String:
      return !v.text.empty();
    case ValueKind::List:
      return !v.items.empty();
    default:
      return std::nullopt;
  }
}

class DdpArgumentPassedToFsdp final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::PythonScript || !doc.python) return;
    for (const model::PyCall& c : doc.python->calls) {
      if (is_fsdp_entry_point(c)) {
        for (const model::PyArg& a : c.args) {
          if (a.name.empty() || !contains(kDdpOnly, a.name)) continue;
          std::string message = "`" + a.name + "` is a DistributedDataParallel argument: " + c.name +
                                "(...) has no such parameter and raises TypeError (unexpected keyword argument). "
                                "Remove it";
          if (a.name == "bucket_cap_mb")
            message += "; FSDP communicates once per wrapped unit, so the wrap policy sets its granularity";
          message += ".";
          ctx.report(doc.path(), a.region, std::move(message), {}, std::nullopt, "fsdp." + a.name);
        }
      } else if (is_training_arguments(c)) {
        const model::PyArg* fsdp = c.keyword("fsdp");
        if (fsdp == nullptr) continue;
        const auto on = fsdp_on(fsdp->value);
        if (!on || !*on) continue;
        for (const model::PyArg& a : c.args) {
          if (a.name.empty() || !contains(kTrainerDdp, a.name) || a.value.kind == ValueKind::None) continue;
          ctx.report(doc.path(), a.region,
                     "`" + a.name +
                         "` has no effect with `fsdp` set: the Trainer passes its `ddp_*` arguments only "
                         "to DistributedDataParallel, which FSDP replaces. Remove it.",
                     related_site(doc, *fsdp), rule::Severity::Warning, "trainer." + a.name);
        }
      }
    }
  }

 private:
  static std::vector<rule::RelatedLocation> related_site(const model::Document& doc, const model::PyArg& fsdp) {
    return {rule::RelatedLocation{doc.path(), fsdp.region, "FSDP is enabled here"}};
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_ddp_argument_passed_to_fsdp() {
  return std::make_unique<DdpArgumentPassedToFsdp>();
}

}  // namespace lint::rules
