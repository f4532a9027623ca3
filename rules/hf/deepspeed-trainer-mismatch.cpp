// HF006: a non-"auto" DeepSpeed value that disagrees with the Trainer's own argument.
#include <cmath>
#include <optional>

#include "lint/model/versions.hpp"
#include "rules/deepspeed/support.hpp"
#include "rules/hf/trainer_support.hpp"

namespace lint::rules {
namespace {

/// One Trainer argument as the launch sets it: the value and where (empty path: the TrainingArguments default).
struct ArgValue {
  double number = 0;
  model::Site site;
};

struct Pair {
  const char* ds_path;   ///< dotted path in the JSON
  const char* arg;       ///< TrainingArguments field
  double default_value;  ///< transformers 5.17.0 default
  bool boolean;          ///< compared as a bool
};
// transformers 5.17.0 integrations/deepspeed.py:133-181 (trainer_config_process).
constexpr Pair kPairs[] = {
    {"train_micro_batch_size_per_gpu", "per_device_train_batch_size", 8, false},
    {"gradient_accumulation_steps", "gradient_accumulation_steps", 1, false},
    {"gradient_clipping", "max_grad_norm", 1.0, false},
    {"optimizer.params.lr", "learning_rate", 5e-5, false},
    {"optimizer.params.eps", "adam_epsilon", 1e-8, false},
    {"optimizer.params.weight_decay", "weight_decay", 0.0, false},
    {"fp16.enabled", "fp16", 0, true},
    {"bf16.enabled", "bf16", 0, true},
    {"scheduler.params.warmup_max_lr", "learning_rate", 5e-5, false},
};

const parse::Node* at_path(const parse::Node& root, std::string_view path) {
  const parse::Node* n = &root;
  while (n != nullptr && !path.empty()) {
    const auto dot = path.find('.');
    n = n->is_map() ? n->find(path.substr(0, dot)) : nullptr;
    path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
  }
  return n;
}

std::optional<double> number_of(const model::Value& v) {
  if (v.kind == model::ValueKind::Int) return static_cast<double>(v.integer);
  if (v.kind == model::ValueKind::Float) return v.number;
  if (v.kind == model::ValueKind::Bool) return v.boolean ? 1.0 : 0.0;
  return std::nullopt;
}

std::optional<double> number_of_text(const std::string& t) {
  if (t == "True" || t == "true") return 1.0;
  if (t == "False" || t == "false") return 0.0;
  return trainer::number_word(t);
}

/// The Trainer's arguments of the launch: `lookup(name)` gives the value, or nullopt when not known.
class TrainerArgs {
 public:
  explicit TrainerArgs(const model::Launch& l) {
    const model::Document* script = model::launch_script(l);
    if (script == nullptr) return;
    for (const model::PyCall& c : script->python->calls) {
      if (model::is_training_arguments_class(c.name) && c.keyword("deepspeed") != nullptr) {
        call_ = &c;
        path_ = script->path();
        // Only plain TrainingArguments has the defaults below (TRL's configs change several).
        defaults_ = c.name == "TrainingArguments" && !c.has_unresolved_unpacking;
        // TRL's configs keep fp16's default (false) and, from TRL 0.19, set an unset `bf16` to `not fp16`
        // (trl v0.19.0 trl/trainer/sft_config.py:252; trl v1.9.0 trl/trainer/base_config.py:105).
        trl_precision_ = c.name != "TrainingArguments" && c.name != "Seq2SeqTrainingArguments" &&
                         !c.has_unresolved_unpacking &&
                         model::target_versions().at_least("trl", model::Version{0, 19, 0});
      }
      if (c.name == "HfArgumentParser") {
        parser_ = true;
        for (const model::PyArg& a : c.args) {
          const model::Value& v = a.value;
          auto mentions = [](const model::Value& x) { return x.text.ends_with("TrainingArguments"); };
          if (mentions(v) || std::any_of(v.items.begin(), v.items.end(), mentions)) plain_parser_ = true;
        }
      }
      if (c.name == "TrlParser") parser_ = true;
      if (c.name == "parse_yaml_file" || c.name == "parse_json_file" || c.name == "parse_dict") file_args_ = true;
      if (c.name == "parse_args_into_dataclasses") cli_parse_ = true;
    }
    // LLaMA-Factory's entry script hands its command line to HfArgumentParser over its Seq2SeqTrainingArguments
    // subclass, whose fields keep transformers' defaults (LLaMA-Factory v0.9.5 src/llamafactory/hparams/parser.py;
    // llmtuner v0.5.3 src/llmtuner/hparams/parser.py); a single YAML / JSON argument is read as the arguments instead.
    if (call_ == nullptr && !parser_ && model::is_llamafactory_script(*script->python)) {
      parser_ = true;
      plain_parser_ = true;
    }
    if (call_ == nullptr && parser_ && l.command_document != nullptr) {
      flags_ = model::script_flags(l);
      // HF's examples read a file only when it is the one argument (`if len(sys.argv) == 2 and
      // sys.argv[1].endswith(".json"): parse_json_file(...) else: parse_args_into_dataclasses()`): launched with
      // `--flags`, such a script parses its command line.
      if (file_args_ && cli_parse_ && !flags_.empty() &&
          std::none_of(flags_.begin(), flags_.end(), [](const model::ScriptFlag& f) { return f.from_yaml; }))
        file_args_ = false;
      for (const auto& f : flags_) {
        if (f.name == "config") file_args_ = true;
      }
      defaults_ = plain_parser_ && !file_args_;
    }
  }

  [[nodiscard]] bool known() const { return call_ != nullptr || (parser_ && !file_args_ && !flags_.empty()); }

  [[nodiscard]] std::optional<ArgValue> lookup(const Pair& p) const {
    if (call_ != nullptr) {
      if (const model::PyArg* a = call_->keyword(p.arg)) {
        if (auto n = number_of(a->value))
          return ArgValue{*n, {path_, a->region, std::string(p.arg) + "=" + a->value.display()}};
        return std::nullopt;
      }
    } else if (const model::ScriptFlag* f = model::find_script_flag(flags_, p.arg)) {
      if (!f->value)
        return p.boolean ? std::optional<ArgValue>(ArgValue{1.0, {f->path, f->region, "--" + f->name}}) : std::nullopt;
      if (!f->value->known) return std::nullopt;
      if (auto n = number_of_text(f->value->text))
        return ArgValue{*n, {f->path, f->region, "--" + f->name + " " + f->value->text}};
      return std::nullopt;
    }
    if (call_ != nullptr && trl_precision_ &&
        (p.arg == std::string_view("fp16") || p.arg == std::string_view("bf16"))) {
      if (p.arg == std::string_view("fp16")) return ArgValue{0.0, {"", {}, "fp16 (default)"}};
      // bf16 left out: `not fp16`.
      const model::PyArg* fp16 = call_->keyword("fp16");
      if (fp16 == nullptr) return ArgValue{1.0, {"", {}, "bf16 (TRL's default: not fp16)"}};
      if (fp16->value.kind != model::ValueKind::Bool) return std::nullopt;
      return ArgValue{fp16->value.boolean ? 0.0 : 1.0, {"", {}, "bf16 (TRL's default: not fp16)"}};
    }
    if (!defaults_) return std::nullopt;
    return ArgValue{p.default_value, {"", {}, std::string(p.arg) + " (default)"}};
  }

 private:
  const model::PyCall* call_ = nullptr;
  std::string path_;
  bool parser_ = false;
  bool plain_parser_ = false;
  bool file_args_ = false;
  bool cli_parse_ = false;
  bool defaults_ = false;
  bool trl_precision_ = false;
  std::vector<model::ScriptFlag> flags_;
};

std::string show(double v, bool boolean) {
  if (boolean) return v != 0 ? "true" : "false";
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

class DeepspeedTrainerMismatch final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file) return;
    const model::Document* doc = deepspeed_json(l);
    if (doc == nullptr) {
      check_accelerate_section(l, ctx);
      return;
    }
    if (model::deepspeed_state(l).reader != model::DeepSpeedReader::Integration) return;
    const TrainerArgs args(l);
    if (!args.known()) return;
    for (const Pair& p : kPairs) {
      const parse::Node* n = at_path(*doc->root_map(), p.ds_path);
      if (n == nullptr) continue;
      std::optional<double> ds;
      if (p.boolean && n->kind == parse::NodeKind::Bool) ds = n->boolean ? 1.0 : 0.0;
      if (!p.boolean && (n->kind == parse::NodeKind::Int || n->kind == parse::NodeKind::Float)) ds = n->number;
      if (!ds) continue;
      const auto a = args.lookup(p);
      if (!a) continue;
      if (std::fabs(*ds - a->number) <= 1e-12 * std::max(1.0, std::fabs(a->number))) continue;
      // An fp16/bf16 section that is off while the Trainer's flag is off too agrees; one that is on needs the flag.
      std::vector<rule::RelatedLocation> rel;
      if (!a->site.path.empty()) rel.push_back({a->site.path, a->site.region, "The Trainer's value is set here."});
      ctx.report(doc->path(), n->region,
                 "DeepSpeed `" + std::string(p.ds_path) + "` is " + show(*ds, p.boolean) + " but the Trainer's `" +
                     p.arg + "` is " + show(a->number, p.boolean) + (a->site.path.empty() ? " (its default)" : "") +
                     ": the Trainer collects the mismatch and raises ValueError(\"Please correct the following "
                     "DeepSpeed config values that mismatch TrainingArguments values\") when train() starts "
                     "(transformers 5.17.0 `src/transformers/integrations/deepspeed.py:105-129, 253-258`). Set it to "
                     "\"auto\", or to the Trainer's value.",
                 rel);
    }
    check_betas(*doc, args, ctx);
    check_train_batch_size(l, *doc, args, ctx);
  }

 private:
  /// `optimizer.params.betas` is matched against [adam_beta1, adam_beta2] as one value (trainer_config_process,
  /// transformers 5.17.0 integrations/deepspeed.py:133-181).
  static void check_betas(const model::Document& doc, const TrainerArgs& args, rule::RuleContext& ctx) {
    static constexpr Pair kBeta1{"optimizer.params.betas", "adam_beta1", 0.9, false};
    static constexpr Pair kBeta2{"optimizer.params.betas", "adam_beta2", 0.999, false};
    const parse::Node* n = at_path(*doc.root_map(), "optimizer.params.betas");
    if (n == nullptr || n->kind != parse::NodeKind::Sequence || n->items.size() != 2) return;
    for (const parse::Node& item : n->items) {
      if (item.kind != parse::NodeKind::Int && item.kind != parse::NodeKind::Float) return;
    }
    const auto b1 = args.lookup(kBeta1);
    const auto b2 = args.lookup(kBeta2);
    if (!b1 || !b2) return;
    const auto same = [](double x, double y) { return std::fabs(x - y) <= 1e-12 * std::max(1.0, std::fabs(y)); };
    if (same(n->items[0].number, b1->number) && same(n->items[1].number, b2->number)) return;
    std::vector<rule::RelatedLocation> rel;
    for (const auto* a : {&*b1, &*b2}) {
      if (!a->site.path.empty()) rel.push_back({a->site.path, a->site.region, "The Trainer's value is set here."});
    }
    const bool defaults = b1->site.path.empty() && b2->site.path.empty();
    ctx.report(doc.path(), n->region,
               "DeepSpeed `optimizer.params.betas` is [" + show(n->items[0].number, false) + ", " +
                   show(n->items[1].number, false) + "] but the Trainer's `adam_beta1`, `adam_beta2` are [" +
                   show(b1->number, false) + ", " + show(b2->number, false) + "]" +
                   (defaults ? " (their defaults)" : "") +
                   ": the Trainer collects the mismatch and raises ValueError(\"Please correct the following DeepSpeed "
                   "config values that mismatch TrainingArguments values\") when train() starts (transformers 5.17.0 "
                   "`src/transformers/integrations/deepspeed.py:105-129, 253-258`). Set `betas` to \"auto\", or pass "
                   "the same values as `adam_beta1` / `adam_beta2`.",
               rel);
  }

  /// `train_batch_size` is compared with processes x per-device batch x accumulation (deepspeed.py:141-157).
  static void check_train_batch_size(const model::Launch& l, const model::Document& doc, const TrainerArgs& args,
                                     rule::RuleContext& ctx) {
    const parse::Node* tbs = doc.root_map()->find("train_batch_size");
    if (tbs == nullptr || tbs->kind != parse::NodeKind::Int) return;
    const auto world = l.world_size();
    if (!world || *world < 1) return;
    const auto micro = args.lookup(kPairs[0]);
    const auto ga = args.lookup(kPairs[1]);
    if (!micro || !ga) return;
    const double expected = static_cast<double>(*world) * micro->number * ga->number;
    if (std::fabs(expected - static_cast<double>(tbs->integer)) < 0.5) return;
    ctx.report(doc.path(), tbs->region,
               "DeepSpeed `train_batch_size` is " + tbs->text + " but the Trainer computes " + show(expected, false) +
                   " (" + std::to_string(*world) + " processes x per-device batch " + show(micro->number, false) +
                   " x accumulation " + show(ga->number, false) +
                   "): the Trainer raises ValueError(\"Please correct the following DeepSpeed config values that "
                   "mismatch TrainingArguments values\") when train() starts (transformers 5.17.0 "
                   "`src/transformers/integrations/deepspeed.py:141-157, 253-258`). Set it to \"auto\".");
  }

  /// accelerate's inline `deepspeed_config` section: `gradient_accumulation_steps` / `gradient_clipping` become the
  /// plugin's DeepSpeed values (ACCELERATE_GRADIENT_ACCUMULATION_STEPS / ACCELERATE_GRADIENT_CLIPPING), which the
  /// Trainer compares with its own arguments the same way (trainer.py propagate_args_to_deepspeed).
  static void check_accelerate_section(const model::Launch& l, rule::RuleContext& ctx) {
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind != model::ValueKind::String || dt.text != "DEEPSPEED") return;
    const model::Document* acc = accelerate_config(l);
    if (acc == nullptr || acc->root_map() == nullptr) return;
    const parse::Node* section = acc->root_map()->find("deepspeed_config");
    if (section == nullptr || !section->is_map() || section->find("deepspeed_config_file") != nullptr) return;
    const TrainerArgs args(l);
    if (!args.known()) return;
    for (const Pair& p : kPairs) {
      const std::string_view key = p.ds_path;
      if (key != "gradient_accumulation_steps" && key != "gradient_clipping") continue;
      const parse::Node* n = section->find(key);
      if (n == nullptr || (n->kind != parse::NodeKind::Int && n->kind != parse::NodeKind::Float)) continue;
      const auto a = args.lookup(p);
      if (!a || std::fabs(n->number - a->number) <= 1e-12 * std::max(1.0, std::fabs(a->number))) continue;
      std::vector<rule::RelatedLocation> rel;
      if (!a->site.path.empty()) rel.push_back({a->site.path, a->site.region, "The Trainer's value is set here."});
      ctx.report(acc->path(), n->region,
                 "accelerate's `deepspeed_config." + std::string(key) + "` is " + show(n->number, false) +
                     " but the Trainer's `" + p.arg + "` is " + show(a->number, false) +
                     (a->site.path.empty() ? " (its default)" : "") +
                     ": accelerate writes it into the DeepSpeed config and the Trainer raises ValueError(\"Please "
                     "correct the following DeepSpeed config values that mismatch TrainingArguments values\") when "
                     "train() starts (transformers 5.17.0 `src/transformers/integrations/deepspeed.py:105-129, "
                     "253-258`). Remove it here and set the Trainer's argument, or make them equal.",
                 rel);
    }
    check_accelerate_precision(l, *acc, args, ctx);
  }

  /// accelerate's `mixed_precision` (the config file's, or `--mixed_precision` on the launch) becomes
  /// `fp16.enabled` / `bf16.enabled: true` in the plugin's DeepSpeed config (accelerate v1.14.0
  /// src/accelerate/utils/dataclasses.py DeepSpeedPlugin.set_mixed_precision), which the Trainer compares with its own
  /// `fp16` / `bf16` flag; the launcher's value does not turn the flag on (transformers 5.17.0
  /// training_args.py:1580-1586).
  static void check_accelerate_precision(const model::Launch& l, const model::Document& acc, const TrainerArgs& args,
                                         rule::RuleContext& ctx) {
    const model::Setting* mp = nullptr;
    for (const model::Setting* s : l.assignments(model::keys::kMixedPrecision)) {
      if (s->origin == model::Origin::LaunchFlag) mp = s;  // `--mixed_precision` wins over the config file
      if (s->origin == model::Origin::ConfigFile && s->path == acc.path() &&
          (mp == nullptr || mp->origin != model::Origin::LaunchFlag))
        mp = s;
    }
    if (mp == nullptr || mp->value.kind != model::ValueKind::String) return;
    const std::string& dtype = mp->value.text;
    if (dtype != "fp16" && dtype != "bf16") return;
    const Pair& p = dtype == "fp16" ? kPairs[6] : kPairs[7];
    const auto a = args.lookup(p);
    if (!a || a->number != 0) return;
    std::vector<rule::RelatedLocation> rel;
    if (!a->site.path.empty()) rel.push_back({a->site.path, a->site.region, "The Trainer's value is set here."});
    ctx.report(
        mp->path, mp->region,
        "accelerate's `mixed_precision` is " + dtype + ", which accelerate writes into the DeepSpeed config as `" +
            dtype + ".enabled: true`, but the Trainer's `" + dtype + "` is false" +
            (a->site.path.empty() ? " (its default; the launcher's value does not set it)" : "") +
            ": the Trainer raises ValueError(\"Please correct the following DeepSpeed config values that mismatch "
            "TrainingArguments values\") when train() starts (accelerate v1.14.0 "
            "`src/accelerate/utils/dataclasses.py` DeepSpeedPlugin.set_mixed_precision; transformers 5.17.0 "
            "`src/transformers/integrations/deepspeed.py:105-129, 253-258`). Pass `--" +
            dtype + "` to the training script as well.",
        rel);
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_trainer_mismatch() {
  return std::make_unique<DeepspeedTrainerMismatch>();
}

}  // namespace lint::rules
