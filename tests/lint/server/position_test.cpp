#include "lint/server/position.hpp"

#include <catch2/catch.hpp>

using lint::server::byte_of;
using lint::server::Encoding;
using lint::server::LspPosition;
using lint::server::position_of;

TEST_CASE("LSP positions count UTF-16 units or UTF-8 bytes", "[server]") {
  // "é" is 2 bytes / 1 UTF-16 unit; "🚀" is 4 bytes / 2 UTF-16 units (a surrogate pair).
  const lint::source::SourceFile f("x.yaml", "a: 1\r\n# é🚀 k: v\nlast");
  const std::size_t k = std::string_view(f.text()).find("k:");
  CHECK(position_of(f, k, Encoding::Utf16) == LspPosition{1, 6});
  CHECK(position_of(f, k, Encoding::Utf8) == LspPosition{1, 9});
  CHECK(byte_of(f, {1, 6}, Encoding::Utf16) == k);
  CHECK(byte_of(f, {1, 9}, Encoding::Utf8) == k);
  // CRLF ends the first line; a column past a line's end stays on that line.
  CHECK(byte_of(f, {0, 99}, Encoding::Utf16) == 4);
  CHECK(position_of(f, 4, Encoding::Utf16) == LspPosition{0, 4});
  // Past the last line: the end of the text; before the first: its start.
  CHECK(byte_of(f, {9, 0}, Encoding::Utf16) == f.text().size());
  CHECK(byte_of(f, {-1, 0}, Encoding::Utf16) == 0);
  CHECK(position_of(f, f.text().size(), Encoding::Utf16) == LspPosition{2, 4});
  // Every character start round-trips in both encodings.
  for (std::size_t b = 0; b <= f.text().size(); ++b) {
    const auto c = static_cast<unsigned char>(b < f.text().size() ? f.text()[b] : 0);
    if ((c & 0xC0) == 0x80) continue;
    if (b < f.text().size() && f.text()[b] == '\n') continue;
    for (const Encoding e : {Encoding::Utf16, Encoding::Utf8}) CHECK(byte_of(f, position_of(f, b, e), e) == b);
  }
}
