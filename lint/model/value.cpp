#include "lint/model/value.hpp"

#include <algorithm>
#include <cctype>

namespace lint::model {

const Value* Value::field(std::string_view key) const {
  const Value* found = nullptr;
  for (const auto& [k, v] : fields) {
    if (k == key) found = &v;
  }
  return found;
}

Value Value::unknown(source::Region r) {
  Value v;
  v.region = r;
  return v;
}

Value Value::none(source::Region r) {
  Value v;
  v.kind = ValueKind::None;
  v.region = r;
  return v;
}

Value Value::of_bool(bool b, source::Region r) {
  Value v;
  v.kind = ValueKind::Bool;
  v.boolean = b;
  v.region = r;
  return v;
}

Value Value::of_int(std::int64_t i, source::Region r) {
  Value v;
  v.kind = ValueKind::Int;
  v.integer = i;
  v.number = static_cast<double>(i);
  v.text = std::to_string(i);
  v.region = r;
  return v;
}

Value Value::of_string(std::string s, source::Region r) {
  Value v;
  v.kind = ValueKind::String;
  v.text = std::move(s);
  v.region = r;
  return v;
}

Value Value::of_enum(std::string qualifier, std::string member, source::Region r) {
  Value v;
  v.kind = ValueKind::Enum;
  v.qualifier = std::move(qualifier);
  v.text = std::move(member);
  v.region = r;
  return v;
}

std::string Value::display() const {
  switch (kind) {
    case ValueKind::Unknown:
      return "<unknown>";
    case ValueKind::None:
      return "None";
    case ValueKind::Bool:
      return boolean ? "true" : "false";
    case ValueKind::Int:
    case ValueKind::Float:
      return text;
    case ValueKind::String:
      return "'" + text + "'";
    case ValueKind::Enum:
      return qualifier.empty() ? text : qualifier + "." + text;
    case ValueKind::List: {
      std::string out = "[";
      for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + items[i].display();
      return out + "]";
    }
    case ValueKind::Dict:
      return "{...}";
    case ValueKind::Object:
      return text + "(...)";
  }
  return {};
}

std::optional<bool> parse_truth(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "y" || lower == "yes" || lower == "t" || lower == "true" || lower == "on" || lower == "1") return true;
  if (lower == "n" || lower == "no" || lower == "f" || lower == "false" || lower == "off" || lower == "0") return false;
  return std::nullopt;
}

std::optional<bool> truth_of(const Value& v) {
  switch (v.kind) {
    case ValueKind::Bool:
      return v.boolean;
    case ValueKind::Int:
      return parse_truth(v.text);
    case ValueKind::String:
      return parse_truth(v.text);
    default:
      return std::nullopt;
  }
}

}  // namespace lint::model
