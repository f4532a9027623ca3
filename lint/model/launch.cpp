#include "lint/model/launch.hpp"

namespace lint::model {

std::string_view to_string(Launcher l) {
  switch (l) {
    case Launcher::Unknown:
      return "unknown";
    case Launcher::AccelerateLaunch:
      return "accelerate launch";
    case Launcher::Torchrun:
      return "torchrun";
    case Launcher::Python:
      return "python";
    case Launcher::DeepSpeed:
      return "deepspeed";
    case Launcher::Torchtitan:
      return "torchtitan run_train.sh";
  }
  return "unknown";
}

void Launch::forget_derived() {
  // A launch moved from has none.
  if (derived_ == nullptr || derived_->any.load(std::memory_order_acquire))
    derived_ = std::make_unique<DerivedValues>();
}

const Setting* Launch::add(Setting s) {
  forget_derived();
  settings_.push_back(std::move(s));
  return &settings_.back();
}

void Launch::decide(std::string_view key, std::vector<const Setting*> ranked, std::string reason) {
  forget_derived();
  Effective e;
  e.key = std::string(key);
  e.reason = std::move(reason);
  if (!ranked.empty()) {
    e.decided_by = ranked.front();
    e.value = ranked.front()->value;
    e.overridden.assign(ranked.begin() + 1, ranked.end());
  }
  effective_[std::string(key)] = std::move(e);
}

void Launch::set_unknown(std::string_view key, std::string reason) {
  forget_derived();
  Effective e;
  e.key = std::string(key);
  e.reason = std::move(reason);
  effective_[std::string(key)] = std::move(e);
}

const Effective* Launch::get(std::string_view key) const {
  auto it = effective_.find(key);
  return it == effective_.end() ? nullptr : &it->second;
}

const Value& Launch::value(std::string_view key) const {
  static const Value kUnknown;
  const Effective* e = get(key);
  return e != nullptr ? e->value : kUnknown;
}

std::vector<const Setting*> Launch::assignments(std::string_view key) const {
  std::vector<const Setting*> out;
  for (const Setting& s : settings_) {
    if (s.key == key) out.push_back(&s);
  }
  return out;
}

std::optional<std::int64_t> Launch::world_size() const {
  const Value& v = value(keys::kWorldSize);
  if (v.kind == ValueKind::Int) return v.integer;
  return std::nullopt;
}

bool Launch::fsdp_enabled() const {
  const Value& v = value(keys::kFsdpEnabled);
  return v.kind == ValueKind::Bool && v.boolean;
}

std::optional<int> Launch::fsdp_version() const {
  const Value& v = value(keys::kFsdpVersion);
  if (v.kind == ValueKind::Int && (v.integer == 1 || v.integer == 2)) return static_cast<int>(v.integer);
  return std::nullopt;
}

}  // namespace lint::model
