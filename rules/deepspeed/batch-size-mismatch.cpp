// DS001: DeepSpeed's batch identity train_batch_size == micro * gradient_accumulation_steps * data-parallel size.
#include <cstdint>
#include <optional>
#include <string>

#include "rules/deepspeed/support.hpp"
#include "rules/fix_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// A positive integer written at `key` (not "auto", not a float).
const parse::Node* positive_int(const parse::Node& root, std::string_view key) {
  const parse::Node* n = root.find(key);
  return n != nullptr && n->kind == parse::NodeKind::Int && n->integer > 0 ? n : nullptr;
}

/// True when something besides the launcher decides the data-parallel size or the batch values: elasticity
/// rewrites the batch keys (config.py:729-794); pipeline or tensor parallelism makes the DP size smaller than
/// the world size in ways the script decides.
bool dp_size_unknowable(const parse::Node& root) {
  if (const parse::Node* el = root.find("elasticity"); el != nullptr && el->is_map()) {
    const parse::Node* on = el->find("enabled");
    if (on == nullptr || on->kind != parse::NodeKind::Bool || on->boolean) return true;
  }
  if (root.find("pipeline") != nullptr) return true;
  if (const parse::Node* tp = root.find("tensor_parallel"); tp != nullptr && tp->is_map()) {
    const parse::Node* size = tp->find("autotp_size");
    if (size != nullptr && (size->kind != parse::NodeKind::Int || size->integer > 1)) return true;
  }
  return false;
}

/// The data-parallel size of the launch: its world size over a top-level sequence_parallel_size
/// (config.py:709-727); nothing when unknown.
std::optional<std::int64_t> data_parallel_size(const model::Launch& l, const parse::Node& root) {
  const auto world = l.world_size();
  if (!world || *world < 1) return std::nullopt;
  std::int64_t dp = *world;
  if (const parse::Node* sp = root.find("sequence_parallel_size"); sp != nullptr) {
    if (sp->kind != parse::NodeKind::Int || sp->integer < 1 || dp % sp->integer != 0) return std::nullopt;
    dp /= sp->integer;
  }
  return dp;
}

class BatchSizeMismatch final : public rule::Rule {
  /// train_batch_size with only one of micro / GA, read by plain DeepSpeed: it derives the other as
  /// train_batch_size // (given * data-parallel size) and then asserts the identity (config.py:930-972), so a
  /// train_batch_size that given * DP does not divide fails. Under the HF integration DS010 speaks instead;
  /// Lightning owns the batch keys.
  static void check_derived(const model::Launch& l, const model::Document& doc, const parse::Node& root,
                            const parse::Node& tbs, const parse::Node* given, bool given_is_micro,
                            rule::RuleContext& ctx) {
    if (l.per_file || model::deepspeed_state(l).reader != model::DeepSpeedReader::Raw) return;
    const std::optional<std::int64_t> dp = data_parallel_size(l, root);
    std::int64_t per_step = 0;
    if (!dp || __builtin_mul_overflow(given->integer, *dp, &per_step)) return;
    if (tbs.integer % per_step == 0) return;
    const std::string given_key = given_is_micro ? "train_micro_batch_size_per_gpu" : "gradient_accumulation_steps";
    const std::string derived_key = given_is_micro ? "gradient_accumulation_steps" : "train_micro_batch_size_per_gpu";
    const std::int64_t derived = tbs.integer / per_step;
    const model::Effective* ws = l.get(model::keys::kWorldSize);
    ctx.report(doc.path(), tbs.region,
               "`train_batch_size` " + std::to_string(tbs.integer) + " with `" + given_key + "` " +
                   std::to_string(given->integer) + " and no `" + derived_key + "`, on a data-parallel size of " +
                   std::to_string(*dp) + ": DeepSpeed derives `" + derived_key + "` as " +
                   std::to_string(tbs.integer) + " // (" + std::to_string(given->integer) + " * " +
                   std::to_string(*dp) + ") = " + std::to_string(derived) +
                   " and then fails at initialization with \"Check batch related parameters. train_batch_size is not "
                   "equal to micro_batch_per_gpu * gradient_acc_step * world_size\" (" +
                   ds_cite("deepspeed/runtime/config.py:930-972") + "). Make `train_batch_size` a multiple of " +
                   std::to_string(per_step) + ", or write `" + derived_key + "` instead of it.",
               related_to(ws != nullptr ? ws->decided_by : nullptr, "The world size is set here."));
  }

 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* doc = model::query::deepspeed_config(l);
    if (doc == nullptr || doc->root_map() == nullptr) return;
    const parse::Node& root = *doc->root_map();
    const parse::Node* tbs = positive_int(root, "train_batch_size");
    const parse::Node* micro = positive_int(root, "train_micro_batch_size_per_gpu");
    const parse::Node* gas = positive_int(root, "gradient_accumulation_steps");
    if (tbs == nullptr || dp_size_unknowable(root)) return;
    if ((micro == nullptr) != (gas == nullptr)) {
      check_derived(l, *doc, root, *tbs, micro != nullptr ? micro : gas, micro != nullptr, ctx);
      return;
    }
    if (micro == nullptr || gas == nullptr) return;
    std::int64_t per_rank = 0;
    if (__builtin_mul_overflow(micro->integer, gas->integer, &per_rank)) return;
    const std::string values = "`train_batch_size` " + std::to_string(tbs->integer) +
                               ", `train_micro_batch_size_per_gpu` " + std::to_string(micro->integer) +
                               ", `gradient_accumulation_steps` " + std::to_string(gas->integer);
    const std::string assertion =
        "\"Check batch related parameters. train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step "
        "* world_size\"";

    if (l.per_file) {
      // Alone, the data-parallel size is unknown; a train_batch_size that micro * GA does not divide fails with
      // every size.
      if (tbs->integer % per_rank == 0) return;
      ctx.report(doc->path(), tbs->region,
                 values + ": " + std::to_string(tbs->integer) + " is not a multiple of " +
                     std::to_string(micro->integer) + " * " + std::to_string(gas->integer) + " = " +
                     std::to_string(per_rank) + ", so no data-parallel size satisfies DeepSpeed's " + assertion +
                     " (deepspeed.initialize fails). Set `train_batch_size` to micro * GA * the number of GPUs, or "
                     "leave it out and let DeepSpeed derive it.");
      return;
    }

    const auto world = l.world_size();
    const std::optional<std::int64_t> dp_size = data_parallel_size(l, root);
    if (!dp_size) return;
    const std::int64_t dp = *dp_size;
    std::int64_t expected = 0;
    if (__builtin_mul_overflow(per_rank, dp, &expected)) return;
    if (tbs->integer == expected) return;

    const model::Effective* ws = l.get(model::keys::kWorldSize);
    const model::Setting* ws_site = ws != nullptr ? ws->decided_by : nullptr;
    std::string dp_text = "a data-parallel size of " + std::to_string(dp);
    if (dp != *world)
      dp_text += " (world size " + std::to_string(*world) + " / sequence_parallel_size)";
    else
      dp_text += " (the launch's world size)";
    // Unsafe: the recomputed size keeps micro and GA and changes the global batch the run trains with.
    rule::Fix fix = fixes::set_value(*doc, tbs->region, tbs->text, std::to_string(expected), rule::FixSafety::Unsafe);
    ctx.report_fix(doc->path(), tbs->region,
                   values + " with " + dp_text + ": " + std::to_string(micro->integer) + " * " +
                       std::to_string(gas->integer) + " * " + std::to_string(dp) + " = " + std::to_string(expected) +
                       ", not " + std::to_string(tbs->integer) + ". DeepSpeed fails at initialization with " +
                       assertion + ". Set `train_batch_size` to " + std::to_string(expected) +
                       " (or \"auto\" under the HF Trainer), or drop it and let DeepSpeed derive it.",
                   std::move(fix), related_to(ws_site, "The world size is set here."));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_batch_size_mismatch() {
  return std::make_unique<BatchSizeMismatch>();
}

}  // namespace lint::rules
