#include "lint/model/axolotl/axolotl.hpp"

#include <array>

#include "lint/model/precedence.hpp"
#include "lint/model/resolve.hpp"

namespace lint::model::axolotl {

bool looks_like_config(const parse::Node& m) {
  static constexpr std::array<std::string_view, 10> kKeys = {
      "adapter",     "datasets",     "micro_batch_size", "sequence_len", "fsdp",
      "fsdp_config", "load_in_4bit", "lora_r",           "num_epochs",   "gradient_accumulation_steps"};
  if (m.find("base_model") == nullptr) return false;
  for (std::string_view k : kKeys) {
    if (m.find(k) != nullptr) return true;
  }
  return false;
}

std::string_view fsdp_config_key(std::string_view written) {
  if (written.starts_with("fsdp_")) written.remove_prefix(5);
  return written;
}

void collect_config(const Document& doc, Launch& l) {
  const parse::Node* root = doc.root_map();
  if (root == nullptr) return;
  const parse::Entry* fsdp = root->find_entry("fsdp");
  const parse::Node* cfg = root->find("fsdp_config");
  const bool has_fsdp = (fsdp != nullptr && fsdp->value.kind != parse::NodeKind::Null &&
                         !(fsdp->value.kind == parse::NodeKind::Sequence && fsdp->value.items.empty())) ||
                        (cfg != nullptr && cfg->is_map() && !cfg->entries.empty());
  auto cfg_entry = [&](std::string_view key) -> const parse::Entry* {
    if (cfg == nullptr || !cfg->is_map()) return nullptr;
    const parse::Entry* found = nullptr;
    for (const parse::Entry& e : cfg->entries) {
      if (fsdp_config_key(e.key.text) == key) found = &e;
    }
    return found;
  };
  if (has_fsdp) {
    const source::Region r = fsdp != nullptr ? fsdp->key.region : root->find_entry("fsdp_config")->key.region;
    l.add(make_setting(keys::kFsdpEnabled, Value::of_bool(true, r), Value{}, doc, r, Origin::AxolotlConfig, "fsdp"));
    // axolotl pins a missing version to 1 (axolotl:src/axolotl/utils/schemas/validation.py:1118-1123).
    const parse::Entry* ver = root->find_entry("fsdp_version");
    if (ver == nullptr) ver = cfg_entry("version");
    Value vv = ver != nullptr ? value_of(ver->value) : Value::of_int(1, r);
    if (vv.kind == ValueKind::String && (vv.text == "1" || vv.text == "2"))
      vv = Value::of_int(vv.text[0] - '0', vv.region);
    l.add(make_setting(keys::kFsdpVersion, vv, vv, doc, ver != nullptr ? ver->value.region : r, Origin::AxolotlConfig,
                       ver != nullptr ? ver->key.text : "fsdp_version (axolotl default 1)"));
    if (vv.kind == ValueKind::Int && vv.integer == 2) {
      if (const parse::Entry* raf = cfg_entry("reshard_after_forward")) {
        const Value w = value_of(raf->value);
        Value v = Value::unknown(raf->value.region);
        if (auto t = truth_of(w)) v = Value::of_bool(*t, raf->value.region);
        l.add(make_setting(keys::kReshardAfterForward, v, w, doc, raf->value.region, Origin::AxolotlConfig,
                           "fsdp_config." + raf->key.text));
      }
    }
    if (const parse::Entry* ac = cfg_entry("activation_checkpointing")) {
      const Value w = value_of(ac->value);
      Value v = Value::unknown(ac->value.region);
      if (auto t = truth_of(w)) v = Value::of_bool(*t, ac->value.region);
      l.add(make_setting(keys::kActivationCheckpointing, v, w, doc, ac->value.region, Origin::AxolotlConfig,
                         "fsdp_config." + ac->key.text));
    }
  }
  if (const parse::Entry* gc = root->find_entry("gradient_checkpointing")) {
    const Value w = value_of(gc->value);
    Value v = Value::unknown(gc->value.region);
    if (w.kind == ValueKind::Bool) v = w;
    // axolotl also accepts "unsloth" / "offload" strings: checkpointing on.
    if (w.kind == ValueKind::String) v = Value::of_bool(true, gc->value.region);
    l.add(make_setting(keys::kGradientCheckpointing, v, w, doc, gc->value.region, Origin::AxolotlConfig, gc->key.text));
  } else {
    l.add(default_setting(keys::kGradientCheckpointing, Value::of_bool(false), SourceKind::LibraryDefault,
                          "axolotl default"));
  }
  for (std::string_view key : {keys::kFsdpEnabled, keys::kFsdpVersion, keys::kReshardAfterForward,
                               keys::kActivationCheckpointing, keys::kGradientCheckpointing}) {
    decide(l, key, std::nullopt);
  }
}

}  // namespace lint::model::axolotl
