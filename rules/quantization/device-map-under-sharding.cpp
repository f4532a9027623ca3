// QNT002: device_map / low_cpu_mem_usage in from_pretrained under DeepSpeed ZeRO-3, or device_map under FSDP.
#include "lint/model/trainer/schema.hpp"
#include "rules/quantization/support.hpp"

namespace lint::rules {
namespace {

/// The function a site of a script lies in ("" at module level or when not a Python call).
std::string function_at(const model::Launch& l, const std::string& path, const source::Region& r) {
  for (const model::Document* d : l.documents) {
    if (d->path() != path || !d->python) continue;
    for (const model::PyCall& c : d->python->calls) {
      if (c.region.begin_byte <= r.begin_byte && r.end_byte <= c.region.end_byte) return c.function;
    }
  }
  return {};
}

/// Whether ZeRO-3 is known to transformers when the model at `site` loads: something that installs the DeepSpeed
/// config (TrainingArguments or a TRL config, the parser building them, an Accelerator, HfDeepSpeedConfig) is
/// created earlier in the same function or at module level (transformers v5.17.0 `is_deepspeed_zero3_enabled`
/// reads the config those install; `integrations/accelerate.py:135`).
bool installs_deepspeed_config(const model::PyCall& c) {
  const std::string& n = c.name;
  return model::trainer::is_arguments_call(c) || n == "Accelerator" || n == "HfDeepSpeedConfig" ||
         n == "HfTrainerDeepSpeedConfig" || n == "parse_args_into_dataclasses" || n == "parse_args_and_config" ||
         n == "parse_yaml_file" || n == "parse_json_file" || n == "parse_dict";
}

bool zero3_configured_before(const model::Launch& l, const model::Site& site) {
  // A load in a module the script imports from runs when the script calls it: the order is not known, so ZeRO-3 is
  // taken as configured when the script installs the config anywhere (the usual order: the Accelerator, then the
  // model).
  for (const model::ImportedModule& m : l.imported_modules) {
    if (m.document->path() != site.path) continue;
    const model::Document* script = model::launch_script(l);
    return script != nullptr && script->python &&
           std::any_of(script->python->calls.begin(), script->python->calls.end(), installs_deepspeed_config);
  }
  for (const model::Document* d : l.documents) {
    if (d->path() != site.path || !d->python) continue;
    const model::PyCall* load = nullptr;
    for (const model::PyCall& c : d->python->calls) {
      if (c.region.begin_byte <= site.region.begin_byte && site.region.end_byte <= c.region.end_byte) load = &c;
    }
    if (load == nullptr) return true;  // not a call we can place: keep the error
    for (const model::PyCall& c : d->python->calls) {
      if (c.order >= load->order || (!c.function.empty() && c.function != load->function)) continue;
      if (installs_deepspeed_config(c)) return true;
    }
    return false;
  }
  return true;
}

class DeviceMapUnderSharding final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const model::QuantizationFacts& q = model::quantization_facts(l);
    if (q.device_maps.empty()) return;
    const model::DeepSpeedState& ds = model::deepspeed_state(l);
    if (ds.on && ds.zero_stage == 3) {
      for (const model::Site& s : q.device_maps) {
        if (!zero3_configured_before(l, s)) {
          ctx.report(
              s.path, s.region,
              "`" + s.what +
                  "` under DeepSpeed ZeRO-3, loaded before anything installs the DeepSpeed config "
                  "(TrainingArguments, an Accelerator): every rank loads the whole model onto its GPU, and ZeRO-3 "
                  "partitions it only afterwards. Drop `device_map` and create the TrainingArguments first, so "
                  "that the weights are partitioned while they load.",
              related_site(ds.stage_site, "ZeRO stage 3 is set here."), rule::Severity::Warning);
          continue;
        }
        ctx.report(s.path, s.region,
                   "`" + s.what +
                       "` under DeepSpeed ZeRO-3: transformers raises ValueError(\"DeepSpeed Zero-3 is "
                       "not compatible with passing a `device_map`.\") when ZeRO-3 is configured before the model is "
                       "loaded (and if it is not, every rank loads the whole model). Drop `device_map` (ZeRO-3 "
                       "partitions the weights while they load).",
                   related_site(ds.stage_site, "ZeRO stage 3 is set here."));
      }
      return;
    }
    if (!l.fsdp_enabled() && !(ds.on && ds.zero_stage && *ds.zero_stage < 3)) return;
    const model::Setting* on = fsdp_site(l);
    auto rel = on != nullptr ? related_to(on, "FSDP is turned on here.")
                             : related_site(ds.turned_on, "DeepSpeed is turned on here.");
    // A script linted alone that turns sharding on in one function and loads with a device map in another (a test
    // module, a script with several entry points) does not do both in one process.
    const std::string on_path = on != nullptr ? on->path : ds.turned_on ? ds.turned_on->path : std::string{};
    const source::Region on_region = on != nullptr  ? on->region
                                     : ds.turned_on ? ds.turned_on->region
                                                    : source::Region{};
    auto other_entry_point = [&](const model::Site& s) {
      return l.per_file && s.path == on_path && function_at(l, s.path, s.region) != function_at(l, on_path, on_region);
    };
    for (const model::Site& s : q.auto_device_maps) {
      if (other_entry_point(s)) continue;
      ctx.report(s.path, s.region,
                 "`" + s.what +
                     "` in a distributed launch: on a machine with several GPUs each process spreads "
                     "the model over all of them, and accelerate's prepare() raises ValueError(\"You can't train a "
                     "model that has been loaded with `device_map='auto'` in any distributed mode.\"). Load the model "
                     "without `device_map` and let " +
                     std::string(on != nullptr ? "FSDP" : "DeepSpeed") + " place it.",
                 rel);
    }
    if (on == nullptr) return;
    for (const model::Site& s : q.device_maps) {
      if (std::any_of(q.auto_device_maps.begin(), q.auto_device_maps.end(),
                      [&](const model::Site& a) { return a.region == s.region && a.path == s.path; }) ||
          other_entry_point(s))
        continue;
      ctx.report(s.path, s.region,
                 "`" + s.what +
                     "` under FSDP: every rank loads the whole model onto its GPU before FSDP shards it, "
                     "so peak memory at load time is the full model on each GPU. Load without `device_map` (FSDP's "
                     "`cpu_ram_efficient_loading` loads on rank 0 only and broadcasts).",
                 rel, rule::Severity::Warning);
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_device_map_under_sharding() {
  return std::make_unique<DeviceMapUnderSharding>();
}

}  // namespace lint::rules
