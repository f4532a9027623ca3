#include "lint/report/explain.hpp"

#include <string>

#include "lint/report/reporter.hpp"

namespace lint::report {

namespace {

std::string site(const model::Setting& s) {
  if (s.origin == model::Origin::Default) return s.note.empty() ? std::string("default") : s.note;
  return s.path + ":" + std::to_string(s.region.begin.line) + ":" + std::to_string(s.region.begin.column) + " (" +
         s.spelled + ", " + std::string(model::to_string(s.origin)) + ")";
}

void json_value(std::ostream& out, const model::Value& v) {
  using K = model::ValueKind;
  switch (v.kind) {
    case K::Unknown:
      out << "null";
      return;
    case K::None:
      out << "null";
      return;
    case K::Bool:
      out << (v.boolean ? "true" : "false");
      return;
    case K::Int:
      out << v.integer;
      return;
    case K::Float:
      out << v.text;
      return;
    case K::String:
    case K::Enum:
    case K::Object:
      out << '"' << json_escape(v.text) << '"';
      return;
    case K::List: {
      out << '[';
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i) out << ", ";
        json_value(out, v.items[i]);
      }
      out << ']';
      return;
    }
    case K::Dict: {
      out << '{';
      for (std::size_t i = 0; i < v.fields.size(); ++i) {
        if (i) out << ", ";
        out << '"' << json_escape(v.fields[i].key) << "\": ";
        json_value(out, v.fields[i].value);
      }
      out << '}';
      return;
    }
  }
}

void json_site(std::ostream& out, const model::Setting& s) {
  out << "{\"origin\": \"" << model::to_string(s.origin) << "\"";
  if (s.origin == model::Origin::Default) {
    out << ", \"note\": \"" << json_escape(s.note) << "\"";
  } else {
    out << ", \"file\": \"" << json_escape(s.path) << "\", \"line\": " << s.region.begin.line
        << ", \"column\": " << s.region.begin.column << ", \"spelled\": \"" << json_escape(s.spelled) << "\"";
  }
  out << ", \"value\": ";
  json_value(out, s.value);
  out << "}";
}

}  // namespace

void write_explain_text(std::ostream& out, const std::vector<const model::Launch*>& launches, bool color,
                        const model::TargetVersions* versions) {
  const char* bold = color ? "\x1b[1m" : "";
  const char* dim = color ? "\x1b[2m" : "";
  const char* reset = color ? "\x1b[0m" : "";
  bool first = true;
  for (const model::Launch* l : launches) {
    if (!first) out << "\n";
    first = false;
    out << bold << "launch " << l->name << reset << "\n";
    out << "  launcher: " << model::to_string(l->launcher) << "\n";
    out << "  files:";
    for (const model::Document* d : l->documents) out << " " << d->path();
    out << "\n";
    const auto v = l->fsdp_version();
    const auto ws = l->world_size();
    out << "  FSDP: " << (l->fsdp_enabled() ? "on" : "off/unknown") << ", version "
        << (v ? std::to_string(*v) : std::string("unknown")) << ", world size "
        << (ws ? std::to_string(*ws) : std::string("unknown")) << "\n";
    for (const auto& [key, e] : l->effective()) {
      // Values nothing in the launch decides (left to an unknown environment) are noise here; JSON keeps them.
      if (!e.value.known() && e.decided_by == nullptr && e.overridden.empty() &&
          !e.reason.starts_with("not read"))
        continue;
      out << "  " << key << " = " << (e.value.known() ? e.value.display() : std::string("<unknown>"));
      if (e.decided_by != nullptr) out << dim << "  <- " << site(*e.decided_by) << reset;
      else if (!e.reason.empty()) out << dim << "  (" << e.reason << ")" << reset;
      out << "\n";
      for (const model::Setting* o : e.overridden) {
        out << "      overrides " << o->value.display() << " at " << site(*o) << "\n";
      }
      if (e.decided_by != nullptr && !e.reason.empty()) out << "      because " << e.reason << "\n";
    }
  }
  if (versions == nullptr) return;
  out << (launches.empty() ? "" : "\n") << bold << "versions assumed" << reset << "\n";
  for (const auto& [lib, a] : versions->all()) {
    out << "  " << lib << " " << a.display() << dim << "  <- ";
    out << a.origin;
    // A pin's text says what was written; a setting's origin already names it.
    if (!a.is_default && a.origin.find("target-version") == std::string::npos) out << " (" << a.written << ")";
    out << reset << "\n";
  }
}

void write_explain_json(std::ostream& out, const std::vector<const model::Launch*>& launches,
                        const model::TargetVersions* versions) {
  out << "[";
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const model::Launch& l = *launches[i];
    out << (i ? ",\n " : "\n ") << "{\"name\": \"" << json_escape(l.name) << "\", \"launcher\": \""
        << model::to_string(l.launcher) << "\", \"per_file\": " << (l.per_file ? "true" : "false")
        << ", \"files\": [";
    for (std::size_t k = 0; k < l.documents.size(); ++k)
      out << (k ? ", " : "") << '"' << json_escape(l.documents[k]->path()) << '"';
    out << "], \"effective\": {";
    bool first = true;
    for (const auto& [key, e] : l.effective()) {
      out << (first ? "\n    " : ",\n    ") << '"' << json_escape(key) << "\": {\"value\": ";
      first = false;
      if (e.value.known()) json_value(out, e.value);
      else out << "null";
      out << ", \"known\": " << (e.value.known() ? "true" : "false");
      if (e.decided_by != nullptr) {
        out << ", \"decided_by\": ";
        json_site(out, *e.decided_by);
      }
      if (!e.reason.empty()) out << ", \"reason\": \"" << json_escape(e.reason) << "\"";
      out << ", \"overridden\": [";
      for (std::size_t k = 0; k < e.overridden.size(); ++k) {
        if (k) out << ", ";
        json_site(out, *e.overridden[k]);
      }
      out << "]}";
    }
    out << "\n  }";
    if (versions != nullptr) {
      out << ", \"target_versions\": {";
      bool first_lib = true;
      for (const auto& [lib, a] : versions->all()) {
        out << (first_lib ? "" : ", ") << '"' << json_escape(lib) << "\": {\"assumed\": \"" << json_escape(a.display())
            << "\", \"written\": \"" << json_escape(a.written) << "\", \"origin\": \"" << json_escape(a.origin)
            << "\", \"default\": " << (a.is_default ? "true" : "false") << "}";
        first_lib = false;
      }
      out << "}";
    }
    out << "}";
  }
  out << "\n]\n";
}

}  // namespace lint::report
