#include "lint/source/source_file.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdint>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/reader_test_support.hpp"
#include "tests/support/time_limits.hpp"

using lint::source::Position;
using lint::source::SourceFile;

namespace {

std::string at(const SourceFile& file, std::size_t byte) {
  const Position p = file.position_at(byte);
  return std::to_string(p.line) + ":" + std::to_string(p.column);
}

}  // namespace

TEST_CASE("SourceFile: LF lines and ASCII columns", "[source]") {
  const SourceFile file("f.yaml", "ab\ncd\n");
  CHECK(file.line_count() == 3);
  CHECK(at(file, 0) == "1:1");
  CHECK(at(file, 1) == "1:2");
  CHECK(at(file, 2) == "1:3");  // the LF itself belongs to line 1
  CHECK(at(file, 3) == "2:1");
  CHECK(at(file, 6) == "3:1");    // end of text after the final newline
  CHECK(at(file, 100) == "3:1");  // clamped
  CHECK(file.line_text(1) == "ab");
  CHECK(file.line_text(2) == "cd");
  CHECK(file.line_text(3).empty());
  CHECK(file.line_text(4).empty());
}

TEST_CASE("SourceFile: a tab is one column", "[source]") {
  const SourceFile file("f.yaml", "\tkey:\tv");
  CHECK(at(file, 1) == "1:2");
  CHECK(at(file, 6) == "1:7");
}

TEST_CASE("SourceFile: columns count code points", "[source]") {
  // "ключ: 'é'": each Cyrillic letter and é are two bytes.
  const SourceFile file("f.yaml", "\xD0\xBA\xD0\xBB\xD1\x8E\xD1\x87: '\xC3\xA9'\nx\xF0\x9F\x98\x80y");
  CHECK(at(file, 8) == "1:5");   // the ':'
  CHECK(at(file, 10) == "1:7");  // the opening quote
  CHECK(at(file, 11) == "1:8");  // é
  CHECK(at(file, 13) == "1:9");  // closing quote
  CHECK(at(file, 16) == "2:2");  // the 4-byte emoji
  CHECK(at(file, 20) == "2:3");  // y
  const lint::source::Region r = file.region(10, 14);
  CHECK(r.begin == Position{1, 7});
  CHECK(r.end == Position{1, 10});
  CHECK(r.begin_byte == 10);
  CHECK(r.end_byte == 14);
}

TEST_CASE("SourceFile: CRLF and lone CR end lines", "[source]") {
  const SourceFile crlf("f.yaml", "a: 1\r\nb: 2\r\n");
  CHECK(crlf.line_count() == 3);
  CHECK(at(crlf, 6) == "2:1");
  CHECK(crlf.line_text(1) == "a: 1");
  CHECK(crlf.line_text(2) == "b: 2");

  const SourceFile cr("f.yaml", "a: 1\rb: 2\rc");
  CHECK(cr.line_count() == 3);
  CHECK(at(cr, 5) == "2:1");
  CHECK(at(cr, 10) == "3:1");
  CHECK(cr.line_text(2) == "b: 2");

  const SourceFile mixed("f.yaml", "a\r\rb\n\r\nc");
  CHECK(mixed.line_count() == 5);
  CHECK(at(mixed, 3) == "3:1");
  CHECK(at(mixed, 7) == "5:1");
}

TEST_CASE("SourceFile: byte_at inverts position_at", "[source]") {
  const std::string text =
      "\xEF\xBB\xBF"
      "a: '\xC3\xA9t\xC3\xA9'\r\n\tb:\xF0\x9F\x98\x80 x\rlast";
  const SourceFile file("f.yaml", text);
  for (std::size_t byte = 0; byte <= text.size(); ++byte) {
    const auto c = static_cast<unsigned char>(byte < text.size() ? text[byte] : 'x');
    if ((c & 0xC0U) == 0x80U) continue;  // only character starts have positions of their own
    if (byte > 0 && text[byte - 1] == '\r' && byte < text.size() && text[byte] == '\n') continue;
    INFO("byte " << byte);
    CHECK(file.byte_at(file.position_at(byte)) == byte);
  }
  CHECK(file.line_start(2) == 15);
  CHECK(file.line_region(2).begin == Position{2, 1});
}

TEST_CASE("SourceFile: a BOM is a character of line 1", "[source]") {
  const SourceFile file("f.json", "\xEF\xBB\xBF{}");
  CHECK(at(file, 3) == "1:2");
}

TEST_CASE("count_code_points and is_valid_utf8", "[source]") {
  CHECK(lint::source::count_code_points("") == 0);
  CHECK(lint::source::count_code_points("a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80") == 4);
  CHECK(lint::source::count_code_points("\x80\x80") == 0);  // stray continuation bytes

  std::size_t bad = 99;
  CHECK(lint::source::is_valid_utf8("plain \xC3\xA9 text", &bad));
  CHECK_FALSE(lint::source::is_valid_utf8("ab\xFF", &bad));
  CHECK(bad == 2);
  CHECK_FALSE(lint::source::is_valid_utf8("a\xC3", &bad));  // truncated
  CHECK(bad == 1);
  CHECK_FALSE(lint::source::is_valid_utf8("\xC0\xAF", &bad));  // overlong
  CHECK(bad == 0);
  CHECK_FALSE(lint::source::is_valid_utf8("x\xED\xA0\x80", &bad));  // a surrogate
  CHECK(bad == 1);
  CHECK_FALSE(lint::source::is_valid_utf8("\xF4\x90\x80\x80", &bad));  // beyond U+10FFFF
}

TEST_CASE("SourceFile: positions on long lines match a plain count and stay cheap", "[source][limits]") {
  // Lines far longer than the 4 KiB checkpoint stride, multi-byte characters straddling the checkpoints; with
  // a CRLF (lines found byte by byte) and with LF only (lines found by memchr).
  const bool crlf = GENERATE(true, false);
  INFO("CRLF " << crlf);
  std::string text = "short\n";
  std::uint32_t seed = 7;
  for (int line = 0; line < 3; ++line) {
    for (int i = 0; i < 20000; ++i) {
      seed = seed * 1103515245U + 12345U;
      switch ((seed >> 16U) % 4U) {
        case 0:
          text += "\xC3\xA9";
          break;
        case 1:
          text += "\xF0\x9F\x98\x80";
          break;
        default:
          text += 'a';
          break;
      }
    }
    text += line == 1 && crlf ? "\r\n" : "\n";
  }
  const SourceFile file("long.txt", text);
  std::size_t line_start = 0;
  std::uint32_t line = 1;
  std::uint32_t column = 1;
  for (std::size_t byte = 0; byte <= text.size(); ++byte) {
    const bool lead = byte == text.size() || (static_cast<unsigned char>(text[byte]) & 0xC0U) != 0x80U;
    if (lead && (byte % 997 == 0 || byte == text.size() || byte - line_start < 3)) {
      INFO("byte " << byte);
      REQUIRE(file.position_at(byte) == Position{line, column});
      if (byte == 0 || text[byte - 1] != '\r') REQUIRE(file.byte_at(Position{line, column}) == byte);
    }
    if (byte == text.size()) break;
    if (text[byte] == '\n') {
      ++line;
      column = 1;
      line_start = byte + 1;
    } else if (lead) {
      ++column;
    }
  }
  // 64k lookups on one 1 MB line: linear, not quadratic.
  const SourceFile wide("wide.txt", std::string(1 << 20, 'x'));
  const std::clock_t start = std::clock();
  std::uint64_t sum = 0;
  for (std::size_t byte = 0; byte < wide.text().size(); byte += 16) sum += wide.position_at(byte).column;
  CHECK(sum > 0);
  CHECK(lint::testing::cpu_seconds_since(start) < 1.0 * lint::testing::kTimeFactor);
}

TEST_CASE("SourceFile: release_again gives back a text read back, never one that is not on disk", "[source]") {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("launchlint-release-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "train.py").string();
  { std::ofstream(path) << "import torch\nprint(1)\n"; }
  const SourceFile file(path, "import torch\nprint(1)\n");
  file.release_again();  // never released: kept
  CHECK(file.text() == "import torch\nprint(1)\n");
  file.release(1024);
  CHECK(file.text() == "import torch\nprint(1)\n");  // read back
  file.release_again();
  CHECK(at(file, 13) == "2:1");  // read back again, with its line index
  CHECK(file.unchanged());
  { std::ofstream(path) << "changed\n"; }
  file.release_again();
  CHECK(file.text().empty());  // read back: no longer the content the facts came from
  CHECK_FALSE(file.unchanged());
  file.release_again();  // changed: nothing to give back, and it stays so
  CHECK_FALSE(file.unchanged());

  const SourceFile overlay(path, "unsaved buffer\n");  // an editor's text, never released
  overlay.release_again();
  CHECK(overlay.text() == "unsaved buffer\n");
  std::filesystem::remove_all(dir);
}
