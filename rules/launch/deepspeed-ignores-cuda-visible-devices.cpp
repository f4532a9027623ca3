// LCH006: `CUDA_VISIBLE_DEVICES=... deepspeed --num_gpus N|--include|--exclude|--num_nodes N>1 script`: the deepspeed
// launcher drops the variable and picks the GPUs itself (DeepSpeed deepspeed/launcher/runner.py:448-460).
#include <optional>
#include <string>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

constexpr std::string_view kVisible = "CUDA_VISIBLE_DEVICES";

/// The flag among --include/--exclude/--num_gpus/--num_nodes that makes the launcher ignore the variable, as
/// runner.py:453 tests it (`len(include) or len(exclude) or num_nodes > 1 or num_gpus > 0`); nullptr when none is
/// known to.
const parse::Flag* resource_flag(const parse::LaunchCommand& c) {
  for (const parse::Flag& f : c.flags) {
    if (!f.value || !f.value->known) continue;
    const std::string& v = f.value->text;
    if ((f.name == "include" || f.name == "i" || f.name == "exclude" || f.name == "e") && !v.empty()) return &f;
    const std::optional<std::int64_t> n = parse::int_of(&*f.value);
    if (!n) continue;
    if ((f.name == "num_gpus" || f.name == "num_accelerators") && *n > 0) return &f;
    if (f.name == "num_nodes" && *n > 1) return &f;
  }
  return nullptr;
}

/// True when `list` is exactly `0,1,...,n-1`.
bool first_gpus(const std::string& list, std::int64_t n) {
  std::int64_t next = 0;
  std::size_t b = 0;
  while (b <= list.size()) {
    std::size_t e = list.find(',', b);
    if (e == std::string::npos) e = list.size();
    std::string item = list.substr(b, e - b);
    while (!item.empty() && item.front() == ' ') item.erase(0, 1);
    while (!item.empty() && item.back() == ' ') item.pop_back();
    if (item != std::to_string(next)) return false;
    ++next;
    b = e + 1;
  }
  return next == n;
}

/// True when two `host:list` texts name the same host and GPUs in the same order (spaces aside).
bool same_gpu_list(std::string_view a, std::string_view b) {
  auto strip = [](std::string_view s) {
    std::string out;
    for (char ch : s) {
      if (ch != ' ') out += ch;
    }
    return out;
  };
  return strip(a) == strip(b);
}

class DeepspeedIgnoresCudaVisibleDevices final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::LaunchScript) return;
    for (const parse::LaunchCommand& c : doc.launch_commands) {
      if (c.tool != parse::LaunchTool::DeepSpeed) continue;
      // With a hostfile the resource pool comes from it and the variable is never consulted (runner.py:451):
      // a different path, left alone.
      if (parse::find_flag(c, "hostfile") != nullptr || parse::find_flag(c, "H") != nullptr) continue;
      const auto env = c.env.find(std::string(kVisible));
      if (env == c.env.end() || !env->second.known || env->second.text.empty()) continue;
      const parse::Flag* flag = resource_flag(c);
      if (flag == nullptr) continue;
      const std::string& gpus = env->second.text;
      // `--include localhost:<the same list>` is what the launcher makes of the variable itself when no resource
      // flag is given (runner.py:457, `args.include = f"localhost:{visible_devices}"`): the same GPUs either way.
      if ((flag->name == "include" || flag->name == "i") && same_gpu_list(flag->value->text, "localhost:" + gpus))
        continue;
      const source::Region where = env->second.region.valid() ? env->second.region : flag->region;
      std::vector<rule::RelatedLocation> related{
          rule::RelatedLocation{doc.path(), flag->region, "This flag makes the launcher ignore the variable."}};
      std::string detail;
      if (flag->name == "num_gpus" || flag->name == "num_accelerators") {
        const std::int64_t n = *parse::int_of(&*flag->value);
        if (first_gpus(gpus, n)) continue;  // the variable selects GPUs 0 to n-1: the ones the launcher takes
        detail = n == 1 ? std::string("it runs on GPU 0 of the node")
                        : "it runs on GPUs 0 to " + std::to_string(n - 1) + " of the node";
      } else if (flag->name == "num_nodes") {
        detail = "it takes every GPU of each node";
      } else {
        detail = "the GPUs come from `--" + flag->name + " " + flag->value->text + "` alone, as indices of the node";
      }
      ctx.report(doc.path(), where,
                 "`deepspeed` ignores and unsets `CUDA_VISIBLE_DEVICES=" + gpus + "` because `--" + flag->name +
                     "` is given: " + detail +
                     ", not the GPUs selected here. Select them with `--include localhost:" + gpus +
                     "` (without `--num_gpus`), or drop the resource flags so the launcher turns the variable "
                     "into `--include`.",
                 std::move(related));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_ignores_cuda_visible_devices() {
  return std::make_unique<DeepspeedIgnoresCudaVisibleDevices>();
}

}  // namespace lint::rules
