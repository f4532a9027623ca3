// ACC012: accelerate with DeepSpeed, `train_micro_batch_size_per_gpu` left to "auto", and a script whose
// `accelerator.prepare(...)` calls receive a model but never a DataLoader: `_prepare_deepspeed` takes the micro batch
// from a prepared DataLoader and raises without one (accelerate v1.14.0 src/accelerate/accelerator.py:2172-2196).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/deepspeed_facts.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// What a `prepare()` argument is, read from how it is written.
enum class Role : std::uint8_t { MaybeDataLoader, Model, Other };

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool is_identifier_path(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isalnum(c) != 0 || c == '_' || c == '.'; });
}

/// The role of an argument written `text`. Only a plain name (`model`, `self.opt_ae`) whose last component names a
/// model, an optimizer or a scheduler is known not to be a DataLoader; anything else (a call, a subscript, a name
/// that mentions data, or any other name) may be one.
Role role_of(std::string_view text) {
  if (!is_identifier_path(text)) return Role::MaybeDataLoader;
  const std::size_t dot = text.rfind('.');
  const std::string name = lower(dot == std::string_view::npos ? text : text.substr(dot + 1));
  for (std::string_view data : {"load", "dl", "data", "batch", "iter", "sampler", "loader", "set"}) {
    if (name.find(data) != std::string::npos) return Role::MaybeDataLoader;
  }
  for (std::string_view m : {"model", "net", "module", "unet", "vae", "transformer", "encoder", "decoder"}) {
    if (name.find(m) != std::string::npos) return Role::Model;
  }
  if (name.starts_with("opt") || name.find("optim") != std::string::npos || name.find("sched") != std::string::npos)
    return Role::Other;
  return Role::MaybeDataLoader;
}

/// True when `receiver` is an Accelerator: its last component says so, or the script assigns it from Accelerator().
bool is_accelerator(std::string_view receiver, const std::string& text) {
  const std::size_t dot = receiver.rfind('.');
  if (lower(dot == std::string_view::npos ? receiver : receiver.substr(dot + 1)).find("accelerator") !=
      std::string::npos)
    return true;
  for (std::string_view ctor : {" = Accelerator(", " = accelerate.Accelerator("}) {
    if (text.find(std::string(receiver) + std::string(ctor)) != std::string::npos) return true;
  }
  return false;
}

/// Where DeepSpeed's micro batch is "auto", when that is known; nullopt when it is a number, unset or not known.
struct AutoMicroBatch {
  std::string path;
  source::Region region;
  std::string how;  ///< for the message
};

std::optional<AutoMicroBatch> auto_micro_batch(const model::Launch& l, bool names_a_file) {
  if (const model::Document* ds = model::deepspeed_state(l).config; ds != nullptr && ds->root_map() != nullptr) {
    // `is_auto` is true only for the string "auto"; an unset key is not "auto" (dataclasses.py:1380-1385).
    const parse::Entry* e = ds->root_map()->find_entry("train_micro_batch_size_per_gpu");
    if (e == nullptr || e->value.kind != parse::NodeKind::String || e->value.text != "auto") return std::nullopt;
    return AutoMicroBatch{ds->path(), e->key.region,
                          "`\"train_micro_batch_size_per_gpu\": \"auto\"` in `" + ds->path() + "`"};
  }
  if (names_a_file) return std::nullopt;  // a DeepSpeed JSON the launch names but that is not read here
  // No DeepSpeed JSON: DeepSpeedPlugin builds its config with "auto" (dataclasses.py:1300-1302).
  return AutoMicroBatch{};
}

class DeepSpeedPrepareWithoutDataloader final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::Document* script = nullptr;
    for (const model::Document* d : l.documents) {
      if (d->kind != model::DocKind::PythonScript || !d->python) continue;
      if (script != nullptr) return;  // several Python files: another one may prepare the DataLoader
      script = d;
    }
    if (script == nullptr) return;
    const model::PythonFacts& py = *script->python;
    const std::string& text = script->source->text();
    // The script sets the micro batch itself (AcceleratorState().deepspeed_plugin.deepspeed_config[...], a dict
    // given to DeepSpeedPlugin), or passes a config the launch does not show.
    if (text.find("train_micro_batch_size_per_gpu") != std::string::npos) return;

    // DeepSpeed on: accelerate's distributed_type, or a DeepSpeedPlugin handed to Accelerator().
    std::optional<model::Site> on;
    bool names_a_file = false;
    const model::Value& dt = l.value(model::keys::kDistributedType);
    if (dt.kind == model::ValueKind::String && dt.text == "DEEPSPEED") {
      if (const model::Setting* s = written_site(l, model::keys::kDistributedType))
        on = model::Site{s->path, s->region, "distributed_type: DEEPSPEED"};
      else
        on = model::Site{};
    }
    const std::vector<const model::PyCall*> plugins = py.calls_named("DeepSpeedPlugin");
    if (plugins.size() > 1) return;
    if (plugins.size() == 1) {
      const model::PyCall& p = *plugins.front();
      if (p.has_unresolved_unpacking || p.positional(0) != nullptr) return;
      if (p.keyword("hf_ds_config") != nullptr) names_a_file = true;
      if (!on) {
        bool handed = false;
        for (const model::PyCall* a : py.calls_named("Accelerator")) {
          handed = handed || a->keyword("deepspeed_plugin") != nullptr || a->keyword("deepspeed_plugins") != nullptr;
        }
        if (!handed) return;
        on = model::Site{script->path(), p.callee_region, "DeepSpeedPlugin(...)"};
      }
    }
    if (!on) return;
    if (const model::Document* acc = accelerate_config(l); acc != nullptr && acc->root_map() != nullptr) {
      if (const parse::Node* section = acc->root_map()->find("deepspeed_config");
          section != nullptr && section->is_map() && section->find("deepspeed_config_file") != nullptr)
        names_a_file = true;
    }
    if (l.command_document != nullptr) {
      const std::string& cmd = l.command_document->source->text();
      if (cmd.find("deepspeed_config_file") != std::string::npos ||
          cmd.find("ACCELERATE_DEEPSPEED_CONFIG_FILE") != std::string::npos)
        names_a_file = true;
    }
    const std::optional<AutoMicroBatch> micro = auto_micro_batch(l, names_a_file);
    if (!micro) return;

    // Every accelerator.prepare() call: none may receive something that may be a DataLoader.
    const model::PyCall* first_with_model = nullptr;
    for (const model::PyCall* c : py.calls_named("prepare")) {
      if (c->receiver.empty() || !is_accelerator(c->receiver, text)) continue;
      if (c->has_unresolved_unpacking) return;
      bool model = false;
      for (const model::PyArg& a : c->args) {
        if (!a.name.empty()) continue;  // device_placement=
        const std::string_view arg_text =
            std::string_view(text).substr(a.region.begin_byte, a.region.end_byte - a.region.begin_byte);
        const Role r = role_of(arg_text);
        if (r == Role::MaybeDataLoader) return;
        model = model || r == Role::Model;
      }
      if (model && first_with_model == nullptr) first_with_model = c;
    }
    if (first_with_model == nullptr) return;

    std::string message =
        "`" + first_with_model->receiver +
        ".prepare(...)` receives no DataLoader here or in any other `prepare()` "
        "call of the script, while DeepSpeed's `train_micro_batch_size_per_gpu` is \"auto\" (" +
        (micro->path.empty()
             ? std::string("accelerate's DeepSpeedPlugin writes \"auto\" when no DeepSpeed config "
                           "file is given, accelerate v1.14.0 src/accelerate/utils/dataclasses.py:1300-1302")
             : micro->how) +
        "): accelerate takes the micro batch from a prepared DataLoader and raises \"When using DeepSpeed, "
        "`accelerate.prepare()` requires you to pass at least one of training or evaluation dataloaders\" "
        "(accelerate v1.14.0 src/accelerate/accelerator.py:2172-2196). Pass the training DataLoader to this "
        "`prepare()` call, or set "
        "an integer `train_micro_batch_size_per_gpu` in a DeepSpeed config file (`deepspeed_config_file`) or in "
        "`AcceleratorState().deepspeed_plugin.deepspeed_config` before calling `prepare()`.";
    std::vector<rule::RelatedLocation> related;
    if (!micro->path.empty())
      related.push_back(rule::RelatedLocation{micro->path, micro->region, "The micro batch is left to \"auto\" here."});
    if (!on->path.empty())
      related.push_back(rule::RelatedLocation{on->path, on->region, "DeepSpeed is turned on here."});
    ctx.report(script->path(), first_with_model->region, std::move(message), std::move(related));
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_prepare_without_dataloader() {
  return std::make_unique<DeepSpeedPrepareWithoutDataloader>();
}

}  // namespace lint::rules
