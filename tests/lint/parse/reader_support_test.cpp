#include "lint/parse/reader_support.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <string>

using lint::source::Position;
using lint::source::SourceFile;

namespace {

// Text with every kind of line ending and multi-byte characters.
std::string random_text(std::mt19937& rng, std::size_t size) {
  static const char* const kPieces[] = {
      "a", " ", "\t", "\n", "\r\n", "\r", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "x"};
  std::string text;
  std::uniform_int_distribution<std::size_t> pick(0, std::size(kPieces) - 1);
  while (text.size() < size) text += kPieces[pick(rng)];
  return text;
}

}  // namespace

TEST_CASE("PositionCursor agrees with SourceFile::position_at in any query order", "[parse][support]") {
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    const SourceFile file("f", random_text(rng, 300));
    lint::parse::detail::PositionCursor cursor(file);
    std::uniform_int_distribution<std::size_t> pick(0, file.text().size() + 2);
    std::size_t byte = 0;
    for (int q = 0; q < 400; ++q) {
      // Mostly small steps forward and back, sometimes a jump, as the loaders query.
      if (q % 7 == 0) {
        byte = pick(rng);
      } else {
        byte = std::min(file.text().size(), byte + (q % 5)) - (q % 3 == 0 && byte > 0 ? 1 : 0);
      }
      INFO("round " << round << " byte " << byte);
      const Position expected = file.position_at(byte);
      CHECK(cursor.at(byte) == expected);
    }
  }
}

TEST_CASE("ByteLocator inverts positions, also on very long lines", "[parse][support]") {
  std::string line;
  for (int i = 0; i < 5000; ++i) line += (i % 3 == 0) ? "\xC3\xA9" : "a";
  const SourceFile file("f", "short\n" + line + "\nend");
  lint::parse::detail::ByteLocator locator(file);
  for (std::uint32_t column : {1U, 2U, 63U, 64U, 65U, 129U, 4999U, 5000U, 5001U}) {
    const std::size_t byte = locator.byte_at(Position{2, column});
    CHECK(byte == file.byte_at(Position{2, column}));
    if (column <= 5000) CHECK(file.position_at(byte) == (Position{2, column}));
  }
  CHECK(locator.byte_at(Position{1, 3}) == 2);
  CHECK(locator.byte_at(Position{3, 1}) == file.line_start(3));
}

TEST_CASE("decimal_to_double follows Python's float()", "[parse][support]") {
  using lint::parse::detail::decimal_to_double;
  CHECK(decimal_to_double("1.5") == 1.5);
  CHECK(decimal_to_double("1.") == 1.0);
  CHECK(decimal_to_double(".5") == 0.5);
  CHECK(decimal_to_double("1e-5") == 1e-5);
  CHECK(decimal_to_double("1.0e+5") == 1e5);
  CHECK(std::isinf(*decimal_to_double("1e400")));
  CHECK(decimal_to_double("1e-400") == 0.0);
  CHECK_FALSE(decimal_to_double("").has_value());
  CHECK_FALSE(decimal_to_double("1.5x").has_value());
  CHECK_FALSE(decimal_to_double(".").has_value());
}
