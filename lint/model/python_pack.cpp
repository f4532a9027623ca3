#include "lint/model/python_pack.hpp"

#include <cmath>
#include <memory>

#include "lint/source/compact.hpp"

namespace lint::model {

namespace {

using source::compact::Reader;
using source::compact::Writer;

// A region as its start and its extent: most are short spans of one line, a few bytes each this way.
void put_region(Writer& w, const source::Region& r) {
  w.u(r.begin_byte);
  w.i(static_cast<std::int64_t>(r.end_byte - r.begin_byte));
  w.u(r.begin.line);
  w.u(r.begin.column);
  w.i(static_cast<std::int64_t>(r.end.line) - static_cast<std::int64_t>(r.begin.line));
  w.u(r.end.column);
}

source::Region get_region(Reader& r) {
  source::Region g;
  g.begin_byte = r.u();
  g.end_byte = g.begin_byte + static_cast<std::uint64_t>(r.i());
  g.begin.line = r.u32();
  g.begin.column = r.u32();
  const std::int64_t lines = static_cast<std::int64_t>(g.begin.line) + r.i();
  if (lines < 0 || lines > 0xFFFFFFFFLL) r.fail("region");
  g.end.line = static_cast<std::uint32_t>(lines);
  g.end.column = r.u32();
  return g;
}

void put_strings(Writer& w, const std::vector<std::string>& v) {
  w.u(v.size());
  for (const std::string& s : v) w.s(s);
}

std::vector<std::string> get_strings(Reader& r) {
  std::vector<std::string> v(r.count());
  for (std::string& s : v) s = r.s();
  return v;
}

// A value's head: its kind, then which of the members that are mostly zero follow.
constexpr std::uint64_t kBoolean = 0x10;
constexpr std::uint64_t kInteger = 0x20;
constexpr std::uint64_t kNumber = 0x40;
constexpr std::uint64_t kItems = 0x80;
constexpr std::uint64_t kFields = 0x100;

void put_value(Writer& w, const Value& v) {
  const bool number = v.number != 0.0 || std::signbit(v.number);
  w.u(static_cast<std::uint64_t>(v.kind) | (v.boolean ? kBoolean : 0U) | (v.integer != 0 ? kInteger : 0U) |
      (number ? kNumber : 0U) | (v.items.empty() ? 0U : kItems) | (v.fields.empty() ? 0U : kFields));
  if (v.integer != 0) w.i(v.integer);
  if (number) w.f64(v.number);
  w.s(v.text);
  w.s(v.qualifier);
  put_region(w, v.region);
  if (!v.items.empty()) {
    w.u(v.items.size());
    for (const Value& item : v.items) put_value(w, item);
  }
  if (!v.fields.empty()) {
    w.u(v.fields.size());
    for (const Field& f : v.fields) {
      w.s(f.key);
      put_value(w, f.value);
    }
  }
}

Value get_value(Reader& r, int depth) {
  // Values nest no deeper than the extraction's depth limit (64, lint/model/python_facts.cpp); a corrupt form
  // cannot recurse without end.
  if (depth > 256) r.fail("value depth");
  Value v;
  const std::uint64_t head = r.at_most(0x1FF, "value kind");
  if ((head & 0xF) > static_cast<std::uint64_t>(ValueKind::Object)) r.fail("value kind");
  v.kind = static_cast<ValueKind>(head & 0xF);
  v.boolean = (head & kBoolean) != 0;
  if ((head & kInteger) != 0) v.integer = r.i();
  if ((head & kNumber) != 0) v.number = r.f64();
  v.text = r.s();
  v.qualifier = r.s();
  v.region = get_region(r);
  const std::size_t items = (head & kItems) != 0 ? r.count() : 0;
  v.items.reserve(items);
  for (std::size_t k = 0; k < items; ++k) v.items.push_back(get_value(r, depth + 1));
  const std::size_t fields = (head & kFields) != 0 ? r.count() : 0;
  v.fields.reserve(fields);
  for (std::size_t k = 0; k < fields; ++k) {
    std::string key = r.s();
    v.fields.emplace_back(std::move(key), get_value(r, depth + 1));
  }
  return v;
}

}  // namespace

std::string pack_python_facts(const PythonFacts& facts) {
  Writer w;
  w.u(facts.calls.size());
  for (const PyCall& c : facts.calls) {
    w.s(c.callee);
    w.s(c.name);
    w.s(c.receiver);
    put_region(w, c.region);
    put_region(w, c.callee_region);
    w.u(c.has_unresolved_unpacking ? 1U : 0U);
    w.s(c.function);
    w.u(c.order);
    w.u(c.args.size());
    for (const PyArg& a : c.args) {
      w.s(a.name);
      w.u(a.position);
      put_value(w, a.value);
      put_region(w, a.region);
      put_region(w, a.name_region);
      w.u(a.from_unpacked_dict ? 1U : 0U);
    }
  }
  w.u(facts.classes.size());
  for (const PyClass& c : facts.classes) {
    w.s(c.name);
    put_strings(w, c.bases);
    put_strings(w, c.decorators);
    put_strings(w, c.fields);
    for (std::size_t k = 0; k < c.fields.size(); ++k) {  // one per field: -1, 0, 1 stored as 0, 1, 2
      w.u(k < c.field_truths.size() ? static_cast<unsigned>(c.field_truths[k] + 1) : 0U);
    }
    put_region(w, c.region);
  }
  w.u(facts.attribute_assignments.size());
  for (const PyAttributeAssignment& a : facts.attribute_assignments) {
    w.s(a.target);
    w.s(a.attribute);
    put_value(w, a.value);
    put_region(w, a.region);
    w.s(a.function);
  }
  w.u(facts.imports.size());
  for (const auto& [local, qualified] : facts.imports) {
    w.s(local);
    w.s(qualified);
  }
  put_strings(w, facts.called_imports);
  w.u(facts.syntax_errors.size());
  for (const parse::ParseError& e : facts.syntax_errors) {
    put_region(w, e.region);
    w.s(e.message);
  }
  return w.finish();
}

PythonFacts unpack_python_facts(std::string_view bytes) {
  Reader r(bytes, "packed Python facts");
  PythonFacts facts;
  facts.calls.resize(r.count());
  for (PyCall& c : facts.calls) {
    c.callee = r.s();
    c.name = r.s();
    c.receiver = r.s();
    c.region = get_region(r);
    c.callee_region = get_region(r);
    c.has_unresolved_unpacking = r.at_most(1, "flag") != 0;
    c.function = r.s();
    c.order = r.u();
    c.args.resize(r.count());
    for (PyArg& a : c.args) {
      a.name = r.s();
      a.position = r.u();
      a.value = get_value(r, 0);
      a.region = get_region(r);
      a.name_region = get_region(r);
      a.from_unpacked_dict = r.at_most(1, "flag") != 0;
    }
  }
  facts.classes.resize(r.count());
  for (PyClass& c : facts.classes) {
    c.name = r.s();
    c.bases = get_strings(r);
    c.decorators = get_strings(r);
    c.fields = get_strings(r);
    c.field_truths.resize(c.fields.size());
    for (std::int8_t& t : c.field_truths) t = static_cast<std::int8_t>(static_cast<int>(r.at_most(2, "truth")) - 1);
    c.region = get_region(r);
  }
  facts.attribute_assignments.resize(r.count());
  for (PyAttributeAssignment& a : facts.attribute_assignments) {
    a.target = r.s();
    a.attribute = r.s();
    a.value = get_value(r, 0);
    a.region = get_region(r);
    a.function = r.s();
  }
  for (std::size_t k = r.count(); k > 0; --k) {
    std::string local = r.s();
    facts.imports.insert_or_assign(std::move(local), r.s());
  }
  facts.called_imports = get_strings(r);
  facts.syntax_errors.resize(r.count());
  for (parse::ParseError& e : facts.syntax_errors) {
    e.region = get_region(r);
    e.message = r.s();
  }
  if (!r.done()) r.fail("trailing bytes");
  return facts;
}

bool release_python(Document& doc) {
  if (!doc.python) return false;
  if (!doc.packed_python) doc.packed_python = std::make_unique<const std::string>(pack_python_facts(*doc.python));
  doc.python.reset();
  return true;
}

void restore_python(Document& doc) {
  if (doc.python || !doc.packed_python) return;
  doc.python = std::make_unique<PythonFacts>(unpack_python_facts(*doc.packed_python));
}

}  // namespace lint::model
