// Small helpers shared by rules (not a rule itself).
#pragma once

#include <charconv>
#include <functional>
#include <string>

#include "lint/model/accelerate/schema.hpp"
#include "lint/model/query.hpp"
#include "lint/model/resolve.hpp"
#include "lint/rule/rule.hpp"

namespace lint::rules {

/// `path:line:col` of a setting for messages.
inline std::string where(const model::Setting& s) {
  return s.path + ":" + std::to_string(s.region.begin.line) + ":" + std::to_string(s.region.begin.column);
}

/// A related location pointing at `s` (nothing for a default, which has no place in a file).
inline std::vector<rule::RelatedLocation> related_to(const model::Setting* s, std::string message) {
  if (s == nullptr || s->origin == model::Origin::Default || s->path.empty()) return {};
  return {rule::RelatedLocation{s->path, s->region, std::move(message)}};
}

/// Visits every node of a config tree (iteratively; the loaders bound the depth).
inline void visit_nodes(const parse::Node& root, const std::function<void(const parse::Node&, const parse::Entry*,
                                                                           const parse::Node* parent)>& fn) {
  struct Item {
    const parse::Node* node;
    const parse::Entry* entry;
    const parse::Node* parent;
  };
  std::vector<Item> stack{{&root, nullptr, nullptr}};
  while (!stack.empty()) {
    const Item it = stack.back();
    stack.pop_back();
    fn(*it.node, it.entry, it.parent);
    for (auto e = it.node->entries.rbegin(); e != it.node->entries.rend(); ++e)
      stack.push_back({&e->value, &*e, it.node});
    for (auto c = it.node->items.rbegin(); c != it.node->items.rend(); ++c) stack.push_back({&*c, nullptr, it.node});
  }
}

// The launch queries rules use (lint/model/query.hpp).
using model::query::accelerate_config;
using model::query::written_site;

/// Python-style truthiness of a raw config value (what accelerate's launcher tests before parsing).
inline bool python_truthy(const model::Value& v) {
  switch (v.kind) {
    case model::ValueKind::Bool:
      return v.boolean;
    case model::ValueKind::Int:
      return v.integer != 0;
    case model::ValueKind::Float:
      return v.number != 0.0;
    case model::ValueKind::String:
      return !v.text.empty();
    case model::ValueKind::None:
      return false;
    default:
      return true;
  }
}

/// An integer 0 as accelerate reads `min_num_params` (`int(...)` of the value, dataclasses.py:1921-1922): SIZE_BASED_WRAP
/// then wraps nothing.
inline bool min_num_params_is_zero(const model::Value& v) {
  if (v.kind == model::ValueKind::Int) return v.integer == 0;
  if (v.kind != model::ValueKind::String) return false;
  std::int64_t n = 1;
  const char* end = v.text.data() + v.text.size();
  const auto [ptr, ec] = std::from_chars(v.text.data(), end, n);
  return ec == std::errc{} && ptr == end && n == 0;
}

}  // namespace lint::rules
