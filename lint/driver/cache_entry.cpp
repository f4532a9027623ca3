#include "lint/driver/cache_entry.hpp"

#include <stdexcept>
#include <unordered_map>

namespace lint::driver::cache_entry {

namespace {

class Writer {
 public:
  void u(std::uint64_t v) {
    while (v >= 0x80) {
      body_ += static_cast<char>((v & 0x7F) | 0x80);
      v >>= 7;
    }
    body_ += static_cast<char>(v);
  }
  void s(std::string_view text) {
    auto [it, added] = index_.try_emplace(text, strings_.size());
    if (added) strings_.push_back(text);
    u(it->second);
  }
  void region(const source::Region& r) {
    u(r.begin.line);
    u(r.begin.column);
    u(r.end.line);
    u(r.end.column);
    u(r.begin_byte);
    u(r.end_byte);
  }
  /// The string table, then the body.
  std::string finish() {
    Writer head;
    head.u(strings_.size());
    for (std::string_view text : strings_) {
      head.u(text.size());
      head.body_.append(text);
    }
    return std::move(head.body_) + body_;
  }

 private:
  std::string body_;
  std::vector<std::string_view> strings_;
  std::unordered_map<std::string_view, std::size_t> index_;
};

class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {
    const std::uint64_t n = u();
    if (n > bytes_.size()) throw std::out_of_range("cache entry: string count");
    strings_.reserve(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t len = u();
      if (len > bytes_.size() - at_) throw std::out_of_range("cache entry: string length");
      strings_.push_back(bytes_.substr(at_, len));
      at_ += len;
    }
  }
  std::uint64_t u() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= bytes_.size()) throw std::out_of_range("cache entry: truncated");
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      v |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return v;
    }
    throw std::out_of_range("cache entry: varint");
  }
  std::uint32_t u32() {
    const std::uint64_t v = u();
    if (v > 0xFFFFFFFFULL) throw std::out_of_range("cache entry: 32-bit field");
    return static_cast<std::uint32_t>(v);
  }
  /// A count of items that each take at least one byte (bounds what a corrupt count could allocate).
  std::size_t count() {
    const std::uint64_t n = u();
    if (n > bytes_.size() - at_) throw std::out_of_range("cache entry: count");
    return static_cast<std::size_t>(n);
  }
  std::string_view sv() {
    const std::uint64_t i = u();
    if (i >= strings_.size()) throw std::out_of_range("cache entry: string index");
    return strings_[i];
  }
  std::string s() { return std::string(sv()); }
  source::Region region() {
    source::Region r;
    r.begin.line = u32();
    r.begin.column = u32();
    r.end.line = u32();
    r.end.column = u32();
    r.begin_byte = u();
    r.end_byte = u();
    return r;
  }
  [[nodiscard]] bool done() const { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t at_ = 0;
  std::vector<std::string_view> strings_;
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
