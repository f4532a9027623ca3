#include "lint/model/deepspeed/deepspeed.hpp"

#include <array>
#include <string_view>

namespace lint::model::deepspeed {

bool looks_like_config(const parse::Node& m) {
  auto count = [&](auto keys) {
    std::size_t n = 0;
    for (std::string_view k : keys) n += m.find(k) != nullptr ? 1 : 0;
    return n;
  };
  static constexpr std::array<std::string_view, 6> kStrong = {"zero_optimization",
                                                              "train_micro_batch_size_per_gpu",
                                                              "train_batch_size",
                                                              "zero_allow_untested_optimizer",
                                                              "zero_force_ds_cpu_optimizer",
                                                              "steps_per_print"};
  if (count(kStrong) >= 1) return true;
  // {"fp16": {"enabled": ...}} / {"bf16": {"enabled": ...}} with an optimizer or gradient settings.
  static constexpr std::array<std::string_view, 3> kWeak = {"gradient_accumulation_steps", "gradient_clipping",
                                                            "optimizer"};
  for (std::string_view p : {std::string_view("fp16"), std::string_view("bf16")}) {
    const parse::Node* n = m.find(p);
    if (n != nullptr && n->is_map() && n->find("enabled") != nullptr && count(kWeak) >= 1) return true;
  }
  return false;
}

std::optional<std::int64_t> launcher_world_size(const parse::LaunchCommand& cmd) {
  const parse::Flag* n = parse::find_flag(cmd, "num_gpus");
  const parse::Flag* m = parse::find_flag(cmd, "num_nodes");
  if (cmd.opaque_launcher_args || n == nullptr || !n->value || parse::find_flag(cmd, "hostfile") != nullptr ||
      parse::find_flag(cmd, "include") != nullptr)
    return std::nullopt;
  const auto per = parse::int_of(&*n->value);
  const auto nodes = m != nullptr && m->value ? parse::int_of(&*m->value) : std::optional<std::int64_t>(1);
  if (per && nodes) return *per * *nodes;
  return std::nullopt;
}

}  // namespace lint::model::deepspeed
