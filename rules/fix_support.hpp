// Helpers that build fixes (lint::rule::Fix) for rules: text edits on the exact bytes of a key or a scalar.
#pragma once

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/document.hpp"
#include "lint/rule/diagnostic.hpp"

namespace lint::rules::fixes {

/// Levenshtein distance (two rows).
inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1);
  std::vector<std::size_t> cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t sub = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

/// `best` when it is the only candidate at its (minimal) distance from `word`; empty otherwise. A fix renames
/// only when the "did you mean" has a single answer.
inline std::string_view unambiguous(std::string_view word, std::string_view best,
                                    std::span<const std::string_view> candidates) {
  if (best.empty()) return {};
  const std::size_t d = edit_distance(word, best);
  for (std::string_view c : candidates) {
    if (c != best && edit_distance(word, c) <= d) return {};
  }
  return best;
}

/// The source bytes of `region` in `doc`, or nothing when the region is out of range.
inline std::optional<std::string_view> bytes_of(const model::Document& doc, const source::Region& region) {
  const std::string& text = doc.source->text();
  if (!region.valid() || region.begin_byte >= region.end_byte || region.end_byte > text.size()) return std::nullopt;
  return std::string_view(text).substr(region.begin_byte, region.end_byte - region.begin_byte);
}

/// An edit replacing a scalar (a YAML/JSON/TOML key or value, a Python string literal) with `value`, in the
/// quoting it is written in: plain stays plain, "..." and '...' keep their quotes. No edit for a scalar with an
/// anchor, a tag, a prefix (r"", f"") or an escape in it: the replacement would not be what it says.
inline std::optional<rule::Edit> replace_scalar(const model::Document& doc, const source::Region& region,
                                                std::string_view value, bool force_plain = false) {
  const auto text = bytes_of(doc, region);
  if (!text) return std::nullopt;
  const char q = text->front();
  std::string out;
  if (q == '"' || q == '\'') {
    if (text->size() < 2 || text->back() != q || text->find('\\') != std::string_view::npos) return std::nullopt;
    if (force_plain) {
      out = std::string(value);
    } else {
      if (value.find(q) != std::string_view::npos || value.find('\\') != std::string_view::npos) return std::nullopt;
      out = std::string(1, q) + std::string(value) + std::string(1, q);
    }
  } else {
    if (q == '&' || q == '!' || q == '*' || q == '|' || q == '>' || q == '[' || q == '{') return std::nullopt;
    if (text->find_first_of("\"'\n\r#") != std::string_view::npos) return std::nullopt;
    out = std::string(value);
  }
  return rule::Edit{doc.path(), region.begin_byte, region.end_byte, std::move(out)};
}

inline rule::Fix make_fix(std::string description, rule::FixSafety safety, std::vector<rule::Edit> edits) {
  return rule::Fix{std::move(description), safety, std::move(edits)};
}

/// A fix that renames the key written at `key_region` to `name`; empty when the key cannot be rewritten in place.
inline rule::Fix rename_key(const model::Document& doc, const source::Region& key_region, std::string_view from,
                            std::string_view name, rule::FixSafety safety) {
  auto e = replace_scalar(doc, key_region, name);
  if (!e) return {};
  return make_fix("Rename `" + std::string(from) + "` to `" + std::string(name) + "`", safety, {std::move(*e)});
}

/// A fix that sets the scalar at `region` to `value`.
inline rule::Fix set_value(const model::Document& doc, const source::Region& region, std::string_view shown_from,
                           std::string_view value, rule::FixSafety safety, bool force_plain = false) {
  auto e = replace_scalar(doc, region, value, force_plain);
  if (!e) return {};
  return make_fix("Replace `" + std::string(shown_from) + "` with `" + std::string(value) + "`", safety,
                  {std::move(*e)});
}

/// The document of `launch` whose path is `path`.
template <typename LaunchT>
const model::Document* document_at(const LaunchT& launch, const std::string& path) {
  for (const model::Document* d : launch.documents) {
    if (d->path() == path) return d;
  }
  return nullptr;
}

}  // namespace lint::rules::fixes
