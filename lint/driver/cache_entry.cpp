#include "lint/driver/cache_entry.hpp"

#include <stdexcept>

#include "lint/source/compact.hpp"

namespace lint::driver::cache_entry {

namespace {

using Writer = source::compact::Writer;

/// A reader whose errors name the cache entry.
class Reader : public source::compact::Reader {
 public:
  explicit Reader(std::string_view bytes) : source::compact::Reader(bytes, "cache entry") {}
};

}  // namespace

std::string encode(const Entry& entry, const std::vector<rule::Diagnostic>& diagnostics) {
  Writer w;
  w.u(entry.files_checked);
  w.u(entry.depends_on.size());
  for (const Dependency& d : entry.depends_on) {
    w.s(d.path);
    w.s(d.state);
  }
  w.u(entry.documents.size());
  for (const DocRecord& d : entry.documents) {
    w.s(d.path);
    w.u(static_cast<std::uint64_t>(d.kind));
    w.u((d.read_error ? 1U : 0U) | (d.quotable ? 2U : 0U));
    if (d.read_error) w.s(*d.read_error);
  }
  w.u(diagnostics.size());
  for (const rule::Diagnostic& d : diagnostics) {
    w.s(d.code);
    w.s(d.slug);
    w.u(static_cast<std::uint64_t>(d.severity));
    w.s(d.message);
    w.s(d.path);
    w.region(d.region);
    w.s(d.setting);
    w.u((d.suppressed ? 1U : 0U) | (d.fix ? 2U : 0U));
    w.u(d.related.size());
    for (const rule::RelatedLocation& r : d.related) {
      w.s(r.path);
      w.region(r.region);
      w.s(r.message);
    }
    if (d.fix) {
      w.s(d.fix->description);
      w.u(static_cast<std::uint64_t>(d.fix->safety));
      w.u(d.fix->edits.size());
      for (const rule::Edit& e : d.fix->edits) {
        w.s(e.path);
        w.u(e.begin);
        w.u(e.end);
        w.s(e.replacement);
      }
    }
  }
  return w.finish();
}

Entry decode(std::string_view bytes) {
  Reader r(bytes);
  Entry entry;
  entry.files_checked = r.u();
  entry.depends_on.resize(r.count());
  for (Dependency& d : entry.depends_on) {
    d.path = r.s();
    d.state = r.s();
  }
  entry.documents.resize(r.count());
  for (DocRecord& d : entry.documents) {
    d.path = r.s();
    const std::uint64_t kind = r.u();
    if (kind > 64) throw std::out_of_range("cache entry: document kind");
    d.kind = static_cast<int>(kind);
    const std::uint64_t flags = r.u();
    if ((flags & 1U) != 0) d.read_error = r.s();
    d.quotable = (flags & 2U) != 0;
  }
  entry.diagnostics.resize(r.count());
  for (rule::Diagnostic& d : entry.diagnostics) {
    d.code = r.s();
    d.slug = r.s();
    const std::uint64_t severity = r.u();
    if (severity > static_cast<std::uint64_t>(rule::Severity::Error)) throw std::out_of_range("cache entry: severity");
    d.severity = static_cast<rule::Severity>(severity);
    d.message = r.s();
    d.path = r.s();
    d.region = r.region();
    d.setting = r.s();
    const std::uint64_t flags = r.u();
    d.suppressed = (flags & 1U) != 0;
    d.related.resize(r.count());
    for (rule::RelatedLocation& rel : d.related) {
      rel.path = r.s();
      rel.region = r.region();
      rel.message = r.s();
    }
    if ((flags & 2U) != 0) {
      rule::Fix fix;
      fix.description = r.s();
      const std::uint64_t safety = r.u();
      if (safety > static_cast<std::uint64_t>(rule::FixSafety::Unsafe)) throw std::out_of_range("cache entry: fix");
      fix.safety = static_cast<rule::FixSafety>(safety);
      fix.edits.resize(r.count());
      for (rule::Edit& e : fix.edits) {
        e.path = r.s();
        e.begin = r.u();
        e.end = r.u();
        e.replacement = r.s();
      }
      d.fix = std::move(fix);
    }
  }
  if (!r.done()) throw std::out_of_range("cache entry: trailing bytes");
  return entry;
}

}  // namespace lint::driver::cache_entry
