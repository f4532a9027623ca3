#include "lint/model/torchtitan/torchtitan.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "lint/model/precedence.hpp"

namespace lint::model::torchtitan {

namespace {

constexpr std::array<std::string_view, 12> kSections = {
    "job",      "model",       "optimizer",  "lr_scheduler",
    "training", "parallelism", "checkpoint", "activation_checkpoint",
    "compile",  "metrics",     "profiling",  "quantize"};

}  // namespace

bool is_section(std::string_view name) {
  return std::find(kSections.begin(), kSections.end(), name) != kSections.end();
}

bool looks_like_config(const parse::Node& m) {
  if (m.find("project") != nullptr || m.find("tool") != nullptr || m.find("build-system") != nullptr) return false;
  std::size_t n = 0;
  for (std::string_view k : kSections) n += m.find(k) != nullptr ? 1 : 0;
  return n >= 2 || (n == 1 && m.find("parallelism") != nullptr);
}

void collect_config(const Document& doc, Launch& l) {
  const parse::Node* root = doc.root_map();
  if (root == nullptr) return;
  const parse::Node* par = root->find("parallelism");
  std::int64_t dp_shard = -1;
  if (par != nullptr && par->is_map()) {
    if (const parse::Node* n = par->find("data_parallel_shard_degree"); n != nullptr && n->kind == parse::NodeKind::Int)
      dp_shard = n->integer;
    if (const parse::Entry* e = par->find_entry("fsdp_reshard_after_forward")) {
      const Value w = value_of(e->value);
      Value v = Value::unknown(e->value.region);
      if (w.kind == ValueKind::String && w.text == "never") v = Value::of_bool(false, e->value.region);
      if (w.kind == ValueKind::String && w.text == "always") v = Value::of_bool(true, e->value.region);
      l.add(make_setting(keys::kReshardAfterForward, v, w, doc, e->value.region, Origin::TorchtitanConfig,
                         "parallelism.fsdp_reshard_after_forward"));
    }
  }
  // FSDP is on when dp_shard > 1 or -1 (the leftover ranks) or cp > 1 (parallel_dims.py:314-372).
  const source::Region r = par != nullptr ? par->region : source::Region{};
  l.add(make_setting(keys::kFsdpEnabled, dp_shard == 1 ? Value::unknown(r) : Value::of_bool(true, r), Value{}, doc, r,
                     Origin::TorchtitanConfig, "parallelism.data_parallel_shard_degree"));
  l.add(make_setting(keys::kFsdpVersion, Value::of_int(2, r), Value{}, doc, r, Origin::TorchtitanConfig, "torchtitan"));
  const parse::Node* ac = root->find("activation_checkpoint");
  const parse::Entry* mode = (ac != nullptr && ac->is_map()) ? ac->find_entry("mode") : nullptr;
  if (mode != nullptr) {
    l.add(make_setting(keys::kTorchtitanAcMode, value_of(mode->value), value_of(mode->value), doc, mode->value.region,
                       Origin::TorchtitanConfig, "activation_checkpoint.mode"));
  } else {
    l.add(default_setting(keys::kTorchtitanAcMode, Value::of_string("selective"), SourceKind::LibraryDefault,
                          "torchtitan default"));
  }
  decide(l, keys::kFsdpEnabled, std::nullopt);
  decide(l, keys::kFsdpVersion, std::nullopt);
  decide(l, keys::kReshardAfterForward, std::nullopt, "torchtitan default depends on pipeline parallelism");
  decide(l, keys::kTorchtitanAcMode, std::nullopt);
}

void resolve_launch(const BoundInputs& in, Launch& l) {
  const parse::LaunchCommand& cmd = *in.command;
  l.launcher = Launcher::Torchtitan;
  if (in.torchtitan != nullptr) collect_config(*in.torchtitan, l);
  // run_train.sh: NGPU defaults to 8 (torchtitan v0.2.2).
  Setting s;
  s.key = std::string(keys::kWorldSize);
  auto it = cmd.env.find("NGPU");
  if (it != cmd.env.end()) {
    const auto n = parse::int_of(&it->second);
    s.value = n ? Value::of_int(*n, it->second.region) : Value::unknown(it->second.region);
    s.path = in.script_doc->path();
    s.region = it->second.region;
    s.origin = Origin::Environment;
    s.spelled = "NGPU";
  } else {
    s.value = Value::of_int(8);
    s.origin = Origin::Default;
    s.source = SourceKind::LauncherDefault;
    s.note = "run_train.sh default NGPU=8";
  }
  l.add(std::move(s));
  decide(l, keys::kWorldSize, std::nullopt);
}

}  // namespace lint::model::torchtitan
