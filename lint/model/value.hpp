// A statically known value of a setting, from any source (YAML, JSON, TOML, Python literal, shell word).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "lint/source/source_file.hpp"

namespace lint::model {

/// Unknown means "not statically known": rules stay silent on it.
enum class ValueKind : std::uint8_t { Unknown, None, Bool, Int, Float, String, Enum, List, Dict, Object };

struct Field;

struct Value {
  ValueKind kind = ValueKind::Unknown;
  bool boolean = false;
  std::int64_t integer = 0;
  double number = 0.0;
  /// String: the string. Enum: the member name (`SHARD_GRAD_OP`). Object: the callee's qualified name. Int/Float:
  /// the literal as written.
  std::string text;
  /// Enum: the enum class as written or resolved (`ShardingStrategy`).
  std::string qualifier;
  std::vector<Value> items;                          ///< List
  std::vector<Field> fields;                         ///< Dict (string keys, in order, duplicates kept)
  source::Region region;                             ///< where the value is written

  [[nodiscard]] bool known() const { return kind != ValueKind::Unknown; }
  [[nodiscard]] const Value* field(std::string_view key) const;  ///< last occurrence

  static Value unknown(source::Region r = {});
  static Value none(source::Region r = {});
  static Value of_bool(bool b, source::Region r = {});
  static Value of_int(std::int64_t i, source::Region r = {});
  static Value of_string(std::string s, source::Region r = {});
  static Value of_enum(std::string qualifier, std::string member, source::Region r = {});

  /// A short form for messages: `SHARD_GRAD_OP`, `true`, `'full_shard auto_wrap'`, `2`.
  [[nodiscard]] std::string display() const;
};

/// One key of a Dict value (a struct rather than std::pair: pair needs a complete Value, which clang enforces).
struct Field {
  std::string key;
  Value value;
  Field(std::string k, Value v) : key(std::move(k)), value(std::move(v)) {}
};

/// accelerate's `str_to_bool` truth table (y, yes, t, true, on, 1 / n, no, f, false, off, 0; any case).
std::optional<bool> parse_truth(std::string_view text);

/// The truthiness a setting has for the tool that reads it as a boolean: Bool as is, Int != 0, strings through
/// `parse_truth`; nullopt when unknown or not a truth value.
std::optional<bool> truth_of(const Value& v);

}  // namespace lint::model
