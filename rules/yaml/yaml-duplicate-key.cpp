// YML003: a mapping repeats a key; PyYAML keeps the last value and silently drops the earlier ones.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rules/fix_support.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// The key as PyYAML compares it after construction: `1`, `1.0` and `true` are one dict key in Python.
std::string key_identity(const parse::Node& key) {
  switch (key.kind) {
    case parse::NodeKind::String:
      return "s:" + key.text;
    case parse::NodeKind::Null:
      return "null";
    case parse::NodeKind::Bool:
      return key.boolean ? "n:1" : "n:0";
    case parse::NodeKind::Int:
      return "n:" + std::to_string(key.integer);
    case parse::NodeKind::Float:
      if (std::isfinite(key.number) && std::trunc(key.number) == key.number && std::fabs(key.number) < 9.0e15)
        return "n:" + std::to_string(static_cast<long long>(key.number));
      return "f:" + key.text;
    default:
      return "?:" + key.text;
  }
}

bool contains(const source::Region& outer, const source::Region& inner) {
  return inner.begin_byte >= outer.begin_byte && inner.end_byte <= outer.end_byte;
}

/// Whether the mapping may hold entries merged in with `<<` (flattened into `entries` by the reader).
bool may_merge(const model::Document& doc, const parse::Node& map) {
  const std::string_view text = doc.source->text();
  if (map.region.begin_byte >= map.region.end_byte || map.region.end_byte > text.size()) return true;
  const std::string_view body = text.substr(map.region.begin_byte, map.region.end_byte - map.region.begin_byte);
  return body.find("<<") != std::string_view::npos || body.find("!!merge") != std::string_view::npos ||
         body.find("2002:merge") != std::string_view::npos;
}

/// The entries written in the mapping itself, leaving out those a `<<` merge brought in: a merged key that an
/// explicit key overrides is YAML's merge semantics, not a mistake. Conservative: when in doubt, not written here.
std::vector<const parse::Entry*> own_entries(const model::Document& doc, const parse::Node& map) {
  std::vector<const parse::Entry*> out;
  if (!may_merge(doc, map)) {
    for (const parse::Entry& e : map.entries) out.push_back(&e);
    return out;
  }
  // A key merged from an anchor inside a sibling's value lies in that value's region. The values' regions sorted by
  // where they begin, with the two largest ends among those that begin at or before each one (the largest may be the
  // entry's own value): one binary search per key, not a look at every sibling (quadratic in a mapping's size).
  struct Span {
    std::size_t begin;
    std::size_t end;
    std::size_t entry;
  };
  std::vector<Span> spans;
  for (std::size_t i = 0; i < map.entries.size(); ++i) {
    const source::Region& r = map.entries[i].value.region;
    if (r.end_byte > r.begin_byte) spans.push_back({r.begin_byte, r.end_byte, i});
  }
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.begin < b.begin; });
  constexpr std::size_t kNone = SIZE_MAX;
  struct Ends {
    std::size_t first = 0;
    std::size_t first_entry = kNone;
    std::size_t second = 0;  // the largest end of another entry than first_entry's (0: none)
  };
  std::vector<Ends> ends(spans.size());
  Ends best;
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const Span& sp = spans[k];
    if (best.first_entry == kNone || sp.end > best.first) {
      if (best.first_entry != sp.entry) best.second = std::max(best.second, best.first);
      best.first = sp.end;
      best.first_entry = sp.entry;
    } else if (sp.entry != best.first_entry) {
      best.second = std::max(best.second, sp.end);
    }
    ends[k] = best;
  }
  for (std::size_t i = 0; i < map.entries.size(); ++i) {
    const parse::Entry& e = map.entries[i];
    if (!contains(map.region, e.key.region)) continue;  // merged from an anchor elsewhere
    const auto after = std::upper_bound(spans.begin(), spans.end(), e.key.region.begin_byte,
                                        [](std::size_t at, const Span& sp) { return at < sp.begin; });
    bool nested = false;
    if (after != spans.begin()) {
      const Ends& b = ends[static_cast<std::size_t>(after - spans.begin()) - 1];
      const std::size_t end = b.first_entry != i ? b.first : b.second;
      nested = (b.first_entry != i || b.second > 0) && end >= e.key.region.end_byte;
    }
    if (!nested) out.push_back(&e);  // else merged from an anchor inside a sibling's value
  }
  // A block mapping's own keys share one column; a mapping merged in place (`<<:\n  x: 1`, `<<: {x: 1}`) sits
  // further right. A one-line flow mapping with a merge keeps nothing here.
  std::uint32_t column = UINT32_MAX;
  for (const parse::Entry* e : out) column = std::min(column, e->key.region.begin.column);
  std::erase_if(out, [&](const parse::Entry* e) { return e->key.region.begin.column != column; });
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i]->key.region.begin.line == out[i - 1]->key.region.begin.line) return {};
  }
  return out;
}

/// An edit removing the lines of a block-mapping entry (`key: value` and a nested block under it), or nothing when
/// the entry shares a line with something else (flow mappings, `- key:` items, aliases to values elsewhere).
std::optional<rule::Edit> remove_entry(const model::Document& doc, const parse::Entry& e) {
  const std::string& text = doc.source->text();
  std::size_t begin = e.key.region.begin_byte;
  std::size_t end = std::max(e.key.region.end_byte, e.value.region.end_byte);
  if (e.value.region.begin_byte < e.key.region.begin_byte || end > text.size() || begin >= end) return std::nullopt;
  while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t')) --begin;
  if (begin > 0 && text[begin - 1] != '\n' && text[begin - 1] != '\r') return std::nullopt;
  if (text[end - 1] != '\n') {
    bool comment = false;
    for (; end < text.size() && text[end] != '\n'; ++end) {
      const char c = text[end];
      if (c == '#') comment = true;
      if (!comment && c != ' ' && c != '\t' && c != '\r') return std::nullopt;
    }
    if (end < text.size()) ++end;
  }
  return rule::Edit{doc.path(), begin, end, ""};
}

std::string line_of(const source::Region& r) {
  return "line " + std::to_string(r.begin.line);
}

class YamlDuplicateKey final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.format != parse::Format::Yaml) return;
    if (doc.kind != model::DocKind::AccelerateConfig && doc.kind != model::DocKind::AxolotlConfig) return;
    const parse::Node* root = doc.root_map();
    if (root == nullptr) return;
    visit_nodes(*root, [&](const parse::Node& node, const parse::Entry*, const parse::Node*) {
      if (node.is_map()) check_mapping(doc, node, ctx);
    });
  }

 private:
  static void check_mapping(const model::Document& doc, const parse::Node& map, rule::RuleContext& ctx) {
    if (map.entries.size() < 2) return;
    std::map<std::string, std::vector<const parse::Entry*>> by_key;
    for (const parse::Entry& e : map.entries) by_key[key_identity(e.key)].push_back(&e);
    bool any = false;
    for (const auto& [id, list] : by_key) any |= list.size() > 1;
    if (!any) return;

    // Only keys written twice in this mapping count, not a key that overrides one merged in with `<<`.
    std::map<std::string, std::vector<const parse::Entry*>> own;
    for (const parse::Entry* e : own_entries(doc, map)) own[key_identity(e->key)].push_back(e);
    for (const auto& [id, list] : own) {
      if (list.size() < 2) continue;
      const parse::Entry& first = *list.front();
      const parse::Entry& last = *list.back();
      for (std::size_t i = 1; i < list.size(); ++i) {
        const parse::Entry& here = *list[i];
        const std::string key = "`" + here.key.text + "`";
        const std::string again =
            here.key.text == first.key.text
                ? " is given again (first at " + line_of(first.key.region) + ")"
                : " is the same key as `" + first.key.text + "` once loaded (" + line_of(first.key.region) + ")";
        std::string message = key + again + ": PyYAML keeps ";
        if (&here == &last) {
          message += "this last value, " + here.value.display() + ", and silently drops the earlier " +
                     first.value.display() + ".";
        } else {
          message += "only the last value, " + last.value.display() + " (" + line_of(last.key.region) +
                     "), and silently drops this one and the earlier " + first.value.display() + ".";
        }
        // The finding at the last key removes the first one; each one in between removes itself: applied
        // together, only the value PyYAML keeps is left, and what the file loads to does not change.
        const parse::Entry& dropped = &here == &last ? first : here;
        rule::Fix fix;
        if (auto edit = remove_entry(doc, dropped)) {
          fix = fixes::make_fix("Remove the dropped `" + dropped.key.text + "` (" + line_of(dropped.key.region) + ")",
                                rule::FixSafety::Safe, {std::move(*edit)});
        }
        ctx.report_fix(doc.path(), here.key.region, message, std::move(fix),
                       {rule::RelatedLocation{
                           doc.path(), first.key.region,
                           "first `" + first.key.text + "`, whose value " + first.value.display() + " is dropped"}});
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_yaml_duplicate_key() {
  return std::make_unique<YamlDuplicateKey>();
}

}  // namespace lint::rules
