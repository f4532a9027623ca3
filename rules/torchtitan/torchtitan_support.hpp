// Helpers shared by the torchtitan rules (TT*): the job TOML of a launch and its values with torchtitan's
// defaults (torchtitan v0.2.2 torchtitan/config/job_config.py).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rules/support.hpp"

namespace lint::rules::torchtitan {

inline const model::Document* config_of(const model::Launch& l) {
  for (const model::Document* d : l.documents) {
    if (d->kind == model::DocKind::TorchtitanConfig && d->root_map() != nullptr) return d;
  }
  return nullptr;
}

/// True when the launch command sets an option of `section` on the command line (`--training.seq_len 4096`):
/// CLI args beat the TOML (torchtitan/config/manager.py:30-31), so the TOML alone does not decide it.
inline bool command_overrides(const model::Launch& l, std::string_view section) {
  if (l.command_document == nullptr || !l.command_region.valid()) return false;
  const std::string& text = l.command_document->source->text();
  const std::size_t b = l.command_region.begin_byte;
  const std::size_t e = l.command_region.end_byte;
  if (b >= e || e > text.size()) return false;
  return std::string_view(text).substr(b, e - b).find("--" + std::string(section) + ".") != std::string_view::npos;
}

/// True when the launch command's text contains `needle`.
inline bool command_mentions(const model::Launch& l, std::string_view needle) {
  if (l.command_document == nullptr || !l.command_region.valid()) return false;
  const std::string& text = l.command_document->source->text();
  const std::size_t b = l.command_region.begin_byte;
  const std::size_t e = l.command_region.end_byte;
  if (b >= e || e > text.size()) return false;
  return std::string_view(text).substr(b, e - b).find(needle) != std::string_view::npos;
}

/// A table of the TOML (`parallelism`, `training`), or nullptr.
inline const parse::Node* table(const model::Document& doc, std::string_view name) {
  const parse::Node* t = doc.root_map()->find(name);
  return t != nullptr && t->is_map() ? t : nullptr;
}

/// An integer option: its value, the default when absent, nullopt when written but not an integer.
struct IntOption {
  std::optional<std::int64_t> value;
  const parse::Node* node = nullptr;  ///< where it is written, if it is
};
inline IntOption int_option(const model::Document& doc, std::string_view section, std::string_view key,
                            std::int64_t fallback) {
  IntOption o;
  const parse::Node* t = table(doc, section);
  const parse::Node* n = t != nullptr ? t->find(key) : nullptr;
  if (n == nullptr) {
    o.value = fallback;
    return o;
  }
  o.node = n;
  if (n->kind == parse::NodeKind::Int) o.value = n->integer;
  return o;
}

/// A bool option: its value, the default when absent, nullopt when written but not a bool.
inline std::optional<bool> bool_option(const model::Document& doc, std::string_view section, std::string_view key,
                                       bool fallback) {
  const parse::Node* t = table(doc, section);
  const parse::Node* n = t != nullptr ? t->find(key) : nullptr;
  if (n == nullptr) return fallback;
  if (n->kind == parse::NodeKind::Bool) return n->boolean;
  return std::nullopt;
}

}  // namespace lint::rules::torchtitan
