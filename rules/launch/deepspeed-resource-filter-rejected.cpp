// LCH009: the `deepspeed` launcher's resource filters that its runner rejects before starting anything (DeepSpeed
// 0.19.5 deepspeed/launcher/runner.py): --include with --exclude (:325-326), --num_gpus/--num_nodes with
// --include/--exclude (:462-464), a slot int() rejects (:292-293), an --include host without slots from 0.15.2 to
// 0.19.5 (dropped as empty), and, against a hostfile of the project, a host it does not list (:343-346,
// :359-363) or a slot the host does not declare (:347-349; for --include only before DeepSpeed 0.15.2: from then on
// parse_inclusion_exclusion takes the included slots as the host's own, runner.py:391-398).
#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "lint/model/deepspeed/hostfile.hpp"
#include "lint/model/versions.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// One NODE_SPEC of a filter: `name` or `name:slot,slot`.
struct NodeSpec {
  std::string host;
  std::vector<std::int64_t> slots;  ///< sorted, without duplicates (parse_node_config_list)
};

/// True when Python's int() certainly rejects `s`: empty (after whitespace), or a character no integer literal
/// has (`6.7`, `1-3`: int() accepts digits, `_` between them, a sign and surrounding whitespace).
bool certainly_not_int(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return true;
  const auto e = s.find_last_not_of(" \t");
  s = s.substr(b, e - b + 1);
  if (s.front() == '+' || s.front() == '-') s.remove_prefix(1);
  return s.empty() || s.find_first_not_of("0123456789_") != std::string_view::npos;
}

/// NODE_SPEC[@NODE_SPEC ...] as runner.py:286-307 reads it, hosts in first-seen order; nullopt when the runner
/// would fail on the text itself (two `:`, a slot that is not an integer; `bad_slot` then receives a slot int()
/// certainly rejects).
std::optional<std::vector<NodeSpec>> parse_filter(const std::string& text, std::optional<std::string>* bad_slot) {
  std::vector<NodeSpec> out;
  std::size_t begin = 0;
  while (true) {
    const std::size_t at = text.find('@', begin);
    const std::string spec = text.substr(begin, at == std::string::npos ? std::string::npos : at - begin);
    std::string host = spec;
    std::vector<std::int64_t> slots;
    if (const std::size_t colon = spec.find(':'); colon != std::string::npos) {
      if (spec.find(':', colon + 1) != std::string::npos) return std::nullopt;
      host = spec.substr(0, colon);
      std::size_t b = colon + 1;
      while (true) {
        const std::size_t comma = spec.find(',', b);
        const std::size_t e = comma == std::string::npos ? spec.size() : comma;
        std::int64_t n = 0;
        const auto [ptr, ec] = std::from_chars(spec.data() + b, spec.data() + e, n);
        if (b == e || ec != std::errc{} || ptr != spec.data() + e) {
          const std::string slot = spec.substr(b, e - b);
          if (certainly_not_int(slot)) *bad_slot = slot;
          return std::nullopt;
        }
        slots.push_back(n);
        if (comma == std::string::npos) break;
        b = comma + 1;
      }
    }
    auto it = std::find_if(out.begin(), out.end(), [&](const NodeSpec& s) { return s.host == host; });
    if (it == out.end()) it = out.insert(out.end(), NodeSpec{host, {}});
    it->slots.insert(it->slots.end(), slots.begin(), slots.end());
    std::sort(it->slots.begin(), it->slots.end());
    it->slots.erase(std::unique(it->slots.begin(), it->slots.end()), it->slots.end());
    if (at == std::string::npos) break;
    begin = at + 1;
  }
  return out;
}

/// The last of the flags named `names` with a statically known value, or nullptr.
const parse::Flag* known_flag(const parse::LaunchCommand& c, std::initializer_list<std::string_view> names) {
  const parse::Flag* found = nullptr;
  for (const parse::Flag& f : c.flags) {
    if (std::find(names.begin(), names.end(), f.name) == names.end()) continue;
    found = f.value && f.value->known ? &f : nullptr;
  }
  return found;
}

std::string written(const parse::Flag& f) {
  return "--" + f.name + (f.value ? " " + f.value->text : std::string());
}

std::string host_list(const std::vector<model::HostfileHost>& hosts) {
  std::string out;
  for (const model::HostfileHost& h : hosts)
    out += (out.empty() ? "" : ", ") + h.name + " slots=" + std::to_string(h.slots);
  return out;
}

class DeepspeedResourceFilterRejected final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command_document == nullptr || l.command->tool != parse::LaunchTool::DeepSpeed) return;
    const parse::LaunchCommand& c = *l.command;
    const std::string& path = l.command_document->path();
    const parse::Flag* include = known_flag(c, {"include", "i"});
    const parse::Flag* exclude = known_flag(c, {"exclude", "e"});
    if (include != nullptr && include->value->text.empty()) include = nullptr;
    if (exclude != nullptr && exclude->value->text.empty()) exclude = nullptr;
    if (include == nullptr && exclude == nullptr) return;
    const parse::Flag* filter = include != nullptr ? include : exclude;

    // runner.py:462-464, checked before the filters are parsed.
    for (const parse::Flag* count : {known_flag(c, {"num_gpus", "num_accelerators"}), known_flag(c, {"num_nodes"})}) {
      if (count == nullptr) continue;
      const std::optional<std::int64_t> n = parse::int_of(&*count->value);
      if (!n || *n < 0) continue;
      ctx.report(path, count->region,
                 "`" + written(*count) + "` together with `" + written(*filter) +
                     "`: the deepspeed launcher raises \"Cannot specify num_nodes/gpus with include/exclude\" "
                     "before starting anything (DeepSpeed 0.19.5 deepspeed/launcher/runner.py:462-464). Name the "
                     "GPUs in `--include` alone (`--include localhost:0,1`), or drop `--include`/`--exclude` and "
                     "keep the counts.",
                 {rule::RelatedLocation{path, filter->region, "The resource filter is given here."}});
      return;
    }
    // runner.py:325-326.
    if (include != nullptr && exclude != nullptr) {
      ctx.report(path, exclude->region,
                 "`" + written(*include) + "` and `" + written(*exclude) +
                     "` together: the deepspeed launcher raises \"include_str and exclude_str are mutually "
                     "exclusive.\" (DeepSpeed 0.19.5 deepspeed/launcher/runner.py:325-326). Keep one: list the "
                     "slots to use with `--include`, or the ones to leave out with `--exclude`.",
                 {rule::RelatedLocation{path, include->region, "`--include` is given here."}});
      return;
    }

    // The filter's own syntax: each slot goes through int() (runner.py:292-293).
    std::optional<std::string> bad_slot;
    const std::optional<std::vector<NodeSpec>> specs = parse_filter(filter->value->text, &bad_slot);
    if (!specs) {
      if (!bad_slot) return;  // something else the runner may or may not accept
      ctx.report(path, filter->region,
                 "`" + written(*filter) + "` has the slot `" + *bad_slot +
                     "`, which is not an integer: the deepspeed launcher reads each slot with int() and stops with "
                     "\"ValueError: invalid literal for int() with base 10: '" +
                     *bad_slot +
                     "'\" (DeepSpeed 0.19.5 deepspeed/launcher/runner.py:292-293). Write the GPU indices as "
                     "integers separated by commas (`host:0,1,2`).");
      return;
    }

    // DeepSpeed 0.15.2 to 0.19.5 (#6530) seed each included host with the slots the filter names
    // (runner.py:391-398): a host named without slots gets none and is dropped as empty (runner.py:366, 375-379).
    // With no host left the runner or launch.py fails on an empty list (runner.py:484, launch.py:165); otherwise
    // the job runs without that host.
    const bool is_include = filter == include;
    const model::TargetVersions& tv = model::target_versions();
    if (is_include && tv.at_least("deepspeed", model::Version{0, 15, 2}) &&
        tv.older_than("deepspeed", model::Version{0, 19, 6}) == true) {
      for (const NodeSpec& s : *specs) {
        if (!s.slots.empty()) continue;
        ctx.report(path, filter->region,
                   "`" + written(*filter) + "` names host `" + s.host + "` without slots: DeepSpeed " +
                       tv.get("deepspeed").display() +
                       " takes an included host's slots from the filter itself (deepspeed/launcher/runner.py:391-398 "
                       "at 0.19.5, since 0.15.2), so the host gets none and is dropped (runner.py:366, 375-379); with "
                       "no host left the launch fails with \"IndexError: list index out of range\" (runner.py:484, "
                       "launch.py:165), otherwise it runs without `" +
                       s.host + "`. Name the GPUs: `--include " + s.host + ":0,1,...`.");
        return;
      }
    }

    // Against the hostfile, when the project holds it.
    if (l.hostfile == nullptr || !l.hostfile->source) return;
    const std::optional<std::vector<model::HostfileHost>> hosts = model::read_hostfile(*l.hostfile->source);
    if (!hosts) return;
    // Before 0.15.2 an included slot had to be one of the host's (0.15.1 runner.py:310-312, 355-358); from 0.15.2 the
    // included slots are taken as the host's own.
    const bool include_slots_checked = tv.before("deepspeed", model::Version{0, 15, 2});
    const std::string hostfile = l.hostfile->path();
    for (const NodeSpec& s : *specs) {
      const auto h =
          std::find_if(hosts->begin(), hosts->end(), [&](const model::HostfileHost& x) { return x.name == s.host; });
      if (h == hosts->end()) {
        ctx.report(path, filter->region,
                   "`" + written(*filter) + "` names host `" + s.host + "`, which the hostfile `" + hostfile +
                       "` does not list (" + host_list(*hosts) + "): the deepspeed launcher raises \"Hostname '" +
                       s.host +
                       "' not found in hostfile\" (DeepSpeed 0.19.5 deepspeed/launcher/runner.py:343-346, 359-363). "
                       "Use a host name as the hostfile writes it, or add the host to the hostfile.",
                   {rule::RelatedLocation{hostfile, hosts->front().region, "The hostfile's hosts."}});
        return;
      }
      if (is_include && !include_slots_checked) continue;
      for (const std::int64_t slot : s.slots) {
        if (slot >= 0 && slot < h->slots) continue;
        const std::string range = h->slots == 0 ? std::string("none") : "0 to " + std::to_string(h->slots - 1);
        ctx.report(path, filter->region,
                   "`" + written(*filter) + "` names slot " + std::to_string(slot) + " of `" + s.host +
                       "`, which the hostfile declares with `slots=" + std::to_string(h->slots) + "` (slots " + range +
                       "): the deepspeed launcher raises \"No slot '" + std::to_string(slot) + "' specified on host '" +
                       s.host + "'\" (DeepSpeed " + (is_include ? "before 0.15.2, e.g. 0.15.1" : "0.19.5") +
                       " deepspeed/launcher/runner.py:" + (is_include ? "310-312" : "347-349") +
                       "). Slots are the GPU indices 0..slots-1 the hostfile declares: make `slots=` the host's GPU "
                       "count and select GPUs by those indices.",
                   {rule::RelatedLocation{hostfile, h->region, "The host's slots are declared here."}});
        return;
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_deepspeed_resource_filter_rejected() {
  return std::make_unique<DeepspeedResourceFilterRejected>();
}

}  // namespace lint::rules
