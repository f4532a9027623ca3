#include "lint/parse/node.hpp"

namespace lint::parse {

const std::string& Tag::str() const {
  static const std::string kNone;
  return text_ ? *text_ : kNone;
}

const Entry* Node::find_entry(std::string_view key) const {
  const Entry* found = nullptr;
  for (const Entry& e : entries) {
    if (e.key.text == key) found = &e;
  }
  return found;
}

const Node* Node::find(std::string_view key) const {
  const Entry* e = find_entry(key);
  return e != nullptr ? &e->value : nullptr;
}

std::string Node::display() const {
  switch (kind) {
    case NodeKind::Null:
      return "null";
    case NodeKind::Bool:
      return boolean ? "true" : "false";
    case NodeKind::Int:
    case NodeKind::Float:
      return text;
    case NodeKind::String:
      return "'" + text + "'";
    case NodeKind::Sequence:
      return "[...]";
    case NodeKind::Mapping:
      return "{...}";
  }
  return text;
}

}  // namespace lint::parse
