#include "lint/model/query.hpp"

#include "lint/model/accelerate/schema.hpp"
#include "lint/model/resolve.hpp"

namespace lint::model::query {

CheckpointingState activation_checkpointing(const Launch& launch) {
  using S = CheckpointingState::State;
  CheckpointingState out{S::Off, nullptr};
  const Effective* enabled = launch.get(keys::kFsdpEnabled);
  const bool torch_level =
      enabled != nullptr && enabled->decided_by != nullptr &&
      (enabled->decided_by->origin == Origin::TorchCall || enabled->decided_by->origin == Origin::LightningStrategy ||
       enabled->decided_by->origin == Origin::TorchtitanConfig ||
       // axolotl writes FSDP_ACTIVATION_CHECKPOINTING only from its own fsdp_config.
       enabled->decided_by->origin == Origin::AxolotlConfig);
  // absent_is_unknown: no assignment at all means "whatever the launcher exports" rather than "off".
  bool launcher_only = false;
  auto consider = [&](std::string_view key, bool absent_is_unknown) {
    const Effective* e = launch.get(key);
    if (e == nullptr) return;
    if (e->decided_by == nullptr && !absent_is_unknown) return;
    if (e->decided_by == nullptr && e->value.kind != ValueKind::Bool) {
      // Nothing in the launch sets it: only a launcher's environment could.
      if (out.state == S::Off) {
        out = {S::Unknown, nullptr};
        launcher_only = true;
      }
      return;
    }
    const Value& v = e->value;
    if (key == keys::kTorchtitanAcMode) {
      if (v.kind == ValueKind::String && v.text == "none") return;
      if (v.kind == ValueKind::String) {
        out = {S::On, e->decided_by};
        return;
      }
    }
    if (v.kind == ValueKind::Bool) {
      if (v.boolean && out.state != S::On) out = {S::On, e->decided_by};
      return;
    }
    if (out.state == S::Off || launcher_only) {
      out = {S::Unknown, e->decided_by};
      launcher_only = false;
    }
  };
  // The accelerate plugin field only matters where accelerate builds the FSDP wrapper; when the script alone
  // is linted, the launcher's environment may still turn it on (unknown).
  consider(keys::kActivationCheckpointing, !torch_level);
  consider(keys::kGradientCheckpointing, false);
  consider(keys::kModelGradientCheckpointing, false);
  consider(keys::kApplyActivationCheckpointing, false);
  consider(keys::kLightningAcPolicy, false);
  consider(keys::kTorchtitanAcMode, false);
  // An assignment that is not statically known anywhere in the launch also makes the answer unknown.
  if (out.state == S::Off || (out.state == S::Unknown && launcher_only)) {
    for (std::string_view key :
         {keys::kGradientCheckpointing, keys::kModelGradientCheckpointing, keys::kActivationCheckpointing}) {
      for (const Setting* s : launch.assignments(key)) {
        if (s->value.kind == ValueKind::Unknown && (key != keys::kActivationCheckpointing || !torch_level)) {
          out = {S::Unknown, s};
          launcher_only = false;
        }
      }
    }
  }
  out.unknown_from_launcher_only = out.state == S::Unknown && launcher_only;
  return out;
}

std::optional<bool> keeps_params_unsharded(const Launch& launch, const Setting** site) {
  const auto version = launch.fsdp_version();
  if (!version) return std::nullopt;
  const std::string_view key = *version == 1 ? keys::kShardingStrategy : keys::kReshardAfterForward;
  const Effective* e = launch.get(key);
  if (e == nullptr) return std::nullopt;
  if (site != nullptr) *site = e->decided_by;
  const Value& v = e->value;
  if (*version == 1) {
    if (v.kind != ValueKind::String) return std::nullopt;
    return accelerate::keeps_params_between_passes(v.text);
  }
  if (v.kind != ValueKind::Bool) return std::nullopt;
  return !v.boolean;
}

std::optional<std::int64_t> world_size(const Launch& launch) {
  return launch.world_size();
}
bool fsdp_enabled(const Launch& launch) {
  return launch.fsdp_enabled();
}
std::optional<int> fsdp_version(const Launch& launch) {
  return launch.fsdp_version();
}

const Setting* written_site(const Launch& launch, std::string_view key) {
  const Effective* e = launch.get(key);
  if (e == nullptr || e->decided_by == nullptr || e->decided_by->origin == Origin::Default) return nullptr;
  return e->decided_by;
}

const Document* document_of_kind(const Launch& launch, DocKind kind) {
  for (const Document* d : launch.documents) {
    if (d->kind == kind) return d;
  }
  return nullptr;
}

const Document* accelerate_config(const Launch& launch) {
  return document_of_kind(launch, DocKind::AccelerateConfig);
}
const Document* deepspeed_config(const Launch& launch) {
  return document_of_kind(launch, DocKind::DeepSpeedConfig);
}
const Document* training_script(const Launch& launch) {
  return document_of_kind(launch, DocKind::PythonScript);
}

const parse::LaunchCommand* launch_command(const Launch& launch) {
  return launch.command ? &*launch.command : nullptr;
}

bool shared_with_larger_launch(const Launch& launch, std::string_view path) {
  for (const Document* d : launch.documents) {
    if (d->path() != path) continue;
    const bool counted = launch.command.has_value() && !launch.per_file;
    const bool single = counted && single_process_command(*launch.command);
    const int others = d->bound_launches - (counted ? 1 : 0);
    const int others_single = d->bound_single_process_launches - (single ? 1 : 0);
    return others > others_single;
  }
  return false;
}

}  // namespace lint::model::query
