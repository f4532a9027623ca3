// A compact binary form for what a run keeps: strings stored once, in a table, and referred to by index; integers
// as LEB128 varints. Used by the result cache's entries (lint/driver/cache_entry.hpp) and by the Python facts a
// streaming run keeps packed until a launch needs them (lint/model/python_pack.hpp). Reading checks every length
// and index and throws std::out_of_range on anything malformed. Any bytes round-trip, UTF-8 or not.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lint/source/source_file.hpp"

namespace lint::source::compact {

class Writer {
 public:
  void u(std::uint64_t v) {
    while (v >= 0x80) {
      body_ += static_cast<char>((v & 0x7F) | 0x80);
      v >>= 7;
    }
    body_ += static_cast<char>(v);
  }
  /// A signed integer, zigzag-encoded (small magnitudes take one byte whatever their sign).
  void i(std::int64_t v) { u((static_cast<std::uint64_t>(v) << 1) ^ static_cast<std::uint64_t>(v >> 63)); }
  void f64(double v) {
    char raw[sizeof v];
    std::memcpy(raw, &v, sizeof v);
    body_.append(raw, sizeof v);
  }
  /// `text` must outlive the writer (it is referred to until finish()).
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
    head.body_.reserve(head.body_.size() + body_.size());
    head.body_.append(body_);
    return std::move(head.body_);
  }

 private:
  std::string body_;
  std::vector<std::string_view> strings_;
  std::unordered_map<std::string_view, std::size_t> index_;
};

class Reader {
 public:
  /// `what` names the form in error messages ("cache entry").
  Reader(std::string_view bytes, const char* what) : bytes_(bytes), what_(what) {
    const std::uint64_t n = u();
    if (n > bytes_.size()) fail("string count");
    strings_.reserve(n);
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t len = u();
      if (len > bytes_.size() - at_) fail("string length");
      strings_.push_back(bytes_.substr(at_, len));
      at_ += len;
    }
  }
  std::uint64_t u() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= bytes_.size()) fail("truncated");
      const auto byte = static_cast<unsigned char>(bytes_[at_++]);
      v |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
      if ((byte & 0x80) == 0) return v;
    }
    fail("varint");
  }
  std::int64_t i() {
    const std::uint64_t z = u();
    return static_cast<std::int64_t>(z >> 1) ^ -static_cast<std::int64_t>(z & 1);
  }
  double f64() {
    double v = 0;
    if (bytes_.size() - at_ < sizeof v) fail("truncated");
    std::memcpy(&v, bytes_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::uint32_t u32() {
    const std::uint64_t v = u();
    if (v > 0xFFFFFFFFULL) fail("32-bit field");
    return static_cast<std::uint32_t>(v);
  }
  /// A value of at most `max` (an enumeration's members).
  std::uint64_t at_most(std::uint64_t max, const char* field) {
    const std::uint64_t v = u();
    if (v > max) fail(field);
    return v;
  }
  /// A count of items that each take at least one byte (bounds what a corrupt count could allocate).
  std::size_t count() {
    const std::uint64_t n = u();
    if (n > bytes_.size() - at_) fail("count");
    return static_cast<std::size_t>(n);
  }
  std::string_view sv() {
    const std::uint64_t k = u();
    if (k >= strings_.size()) fail("string index");
    return strings_[k];
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
  [[noreturn]] void fail(const char* field) const { throw std::out_of_range(std::string(what_) + ": " + field); }

 private:
  std::string_view bytes_;
  const char* what_;
  std::size_t at_ = 0;
  std::vector<std::string_view> strings_;
};

}  // namespace lint::source::compact
