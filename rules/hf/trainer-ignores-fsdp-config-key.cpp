// HF001: an `fsdp_config` given to the Trainer (JSON file or dict literal) holds keys transformers 5.17 never
// reads: accelerate-style strategy/offload keys, typos, or FSDP1-only keys under FSDP2
// (transformers v5.17.0 src/transformers/training_args.py:2743-2745 strips `fsdp_`, :2765-2841 reads the keys).
#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/trainer/schema.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

using model::ValueKind;

namespace trainer = model::trainer;

bool contains(std::span<const std::string_view> list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

/// One key of the config, wherever it was written.
struct Item {
  std::string key;        ///< as written
  source::Region region;  ///< where to report
  model::Value value;     ///< its value (Unknown when not known)
};

/// The FSDP version the Trainer uses (trainer::fsdp_config_pick: `fsdp_version` beats `version`, pop-then-assign,
/// transformers v5.17.0 src/transformers/training_args.py:2743-2745; default 2);
/// nullopt when not statically known.
std::optional<int> fsdp_version(const std::vector<Item>& items) {
  std::vector<std::string_view> written;
  for (const Item& it : items) written.push_back(it.key);
  const auto at = trainer::fsdp_config_pick(written, "version");
  return trainer::fsdp_version(at ? &items[*at].value : nullptr);
}

/// The region of a dict literal's key (`"key":` or `key=` in `dict(...)`) just before its value; the value's
/// region when the key is not found there.
source::Region key_region(const source::SourceFile& file, std::string_view key, const source::Region& value) {
  const std::string_view text = file.text();
  if (key.empty() || value.begin_byte > text.size()) return value;
  std::size_t i = value.begin_byte;
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r')) --i;
  if (i == 0 || (text[i - 1] != ':' && text[i - 1] != '=')) return value;
  --i;
  while (i > 0 && (text[i - 1] == ' ' || text[i - 1] == '\t' || text[i - 1] == '\n' || text[i - 1] == '\r')) --i;
  std::size_t end = i;
  if (i > 0 && (text[i - 1] == '"' || text[i - 1] == '\'')) --i;
  if (i < key.size() || text.substr(i - key.size(), key.size()) != key) return value;
  std::size_t begin = i - key.size();
  if (begin > 0 && (text[begin - 1] == '"' || text[begin - 1] == '\'')) --begin;
  return file.region(begin, end);
}

model::Value to_value(const parse::Node& n) {
  switch (n.kind) {
    case parse::NodeKind::Bool:
      return model::Value::of_bool(n.boolean, n.region);
    case parse::NodeKind::Int:
      return model::Value::of_int(n.integer, n.region);
    case parse::NodeKind::String:
      return model::Value::of_string(n.text, n.region);
    case parse::NodeKind::Null:
      return model::Value::none(n.region);
    default:
      return model::Value::unknown(n.region);
  }
}

/// How the `fsdp` option is written where the config is: a keyword in Python, a flag next to a JSON file.
std::string fsdp_option(bool python, std::string_view words) {
  if (python) return "`fsdp=\"" + std::string(words) + "\"`";
  return "`--fsdp \"" + std::string(words) + "\"`";
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string strategy_message(const std::string& spelled, const Item& it, std::optional<int> version, bool python) {
  std::string m = spelled +
                  " is never read by the Trainer (transformers 5.17): it is silently dropped and the sharding "
                  "strategy comes from the `fsdp` option.";
  std::optional<std::string_view> strategy;
  if (it.value.kind == ValueKind::String || it.value.kind == ValueKind::Enum) {
    strategy = model::accelerate::parse_strategy(it.value.text);
  } else if (it.value.kind == ValueKind::Int) {
    strategy = model::accelerate::parse_strategy(std::to_string(it.value.integer));
  }
  if (!strategy)
    return m + " Use " + fsdp_option(python, "full_shard") + " or " + fsdp_option(python, "shard_grad_op") + ".";
  const std::string word = lower(*strategy);
  if (version == 2 && word != "full_shard" && word != "shard_grad_op") {
    return m + " Use " + fsdp_option(python, word) + " with `version: 1`: FSDP2 (the default) rejects `" + word + "`.";
  }
  m += " Use " + fsdp_option(python, word);
  if (version == 2)
    m += std::string(" or set `reshard_after_forward: ") + (word == "full_shard" ? "true" : "false") + "`";
  return m + ".";
}

class TrainerIgnoresFsdpConfigKey final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind == model::DocKind::TrainerFsdpConfig) {
      const parse::Node* root = doc.root_map();
      if (root == nullptr) return;
      std::vector<Item> items;
      for (const parse::Entry& e : root->entries) items.push_back(Item{e.key.text, e.key.region, to_value(e.value)});
      check_items(doc, items, false, ctx);
      return;
    }
    if (doc.kind != model::DocKind::PythonScript || !doc.python) return;
    for (const model::PyCall& c : doc.python->calls) {
      if (!trainer::is_arguments_call(c)) continue;
      const model::PyArg* cfg = c.keyword("fsdp_config");
      if (cfg == nullptr || cfg->value.kind != ValueKind::Dict) continue;
      std::vector<Item> items;
      for (const auto& [k, v] : cfg->value.fields) {
        items.push_back(Item{k, key_region(*doc.source, k, v.region.valid() ? v.region : cfg->region), v});
      }
      check_items(doc, items, true, ctx);
    }
  }

 private:
  static void check_items(const model::Document& doc, const std::vector<Item>& items, bool python,
                          rule::RuleContext& ctx) {
    const std::optional<int> version = fsdp_version(items);
    std::vector<std::string> prefixed_names;
    const auto read_keys = trainer::fsdp_config_read_keys();
    std::vector<std::string_view> names(read_keys.begin(), read_keys.end());
    for (std::string_view k : read_keys) prefixed_names.push_back("fsdp_" + std::string(k));
    std::vector<std::string_view> prefixed(prefixed_names.begin(), prefixed_names.end());

    for (const Item& it : items) {
      const std::string_view key = trainer::fsdp_config_key(it.key);
      const std::string spelled = "`fsdp_config." + it.key + "`";
      if (contains(read_keys, key)) {
        if (version == 2 && contains(trainer::fsdp_config_fsdp1_only_keys(), key)) {
          ctx.report(doc.path(), it.region,
                     spelled + " is read only for FSDP1; with version 2 (" +
                         (has_version(items) ? "set in this config" : "the transformers 5.x default") +
                         ") the Trainer silently drops it. Remove it, or set `version: 1` to use FSDP1 "
                         "(deprecated).");
        }
        continue;
      }
      if (key == "sharding_strategy") {
        ctx.report(doc.path(), it.region, strategy_message(spelled, it, version, python));
        continue;
      }
      if (key == "offload_params") {
        ctx.report(doc.path(), it.region,
                   spelled +
                       " is never read by the Trainer (transformers 5.17): it is silently dropped; CPU offload "
                       "comes from `cpu_offload` or the `offload` word of the `fsdp` option. Use `cpu_offload: true` "
                       "or " +
                       fsdp_option(python, "full_shard offload") + ".");
        continue;
      }
      std::string message = spelled + " is not a key the Trainer reads (transformers 5.17): it is silently dropped.";
      const bool with_prefix = trainer::fsdp_config_key(it.key) != it.key;
      if (auto best = model::accelerate::closest(it.key, with_prefix ? prefixed : names); !best.empty()) {
        message += " Did you mean `" + std::string(best) + "`?";
      } else {
        message += " Remove it.";
      }
      ctx.report(doc.path(), it.region, std::move(message));
    }
  }

  static bool has_version(const std::vector<Item>& items) {
    return std::any_of(items.begin(), items.end(),
                       [](const Item& it) { return it.key == "version" || it.key == "fsdp_version"; });
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_trainer_ignores_fsdp_config_key() {
  return std::make_unique<TrainerIgnoresFsdpConfigKey>();
}

}  // namespace lint::rules
