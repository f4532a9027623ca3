// A big TOML checked by toml++ in pieces cut at table headers (parse::check_toml_in_pieces) gives the errors of a
// full read, or says that it cannot (then the driver reads the file in full). Tiny piece sizes cut at every header.
#include <catch2/catch.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "lint/parse/readers.hpp"

using lint::parse::check_toml_in_pieces;
using lint::parse::ParseError;
using lint::parse::read_toml;
using lint::source::SourceFile;

namespace {

std::string describe(const std::vector<ParseError>& errors) {
  std::string out;
  for (const ParseError& e : errors) {
    out += std::to_string(e.region.begin.line) + ":" + std::to_string(e.region.begin.column) + "-" +
           std::to_string(e.region.end.line) + ":" + std::to_string(e.region.end.column) + "@" +
           std::to_string(e.region.begin_byte) + " " + e.message + "\n";
  }
  return out;
}

constexpr std::size_t kSizes[] = {1, 16, 64, 1000, 1 << 20};

/// For every piece size: the pieces give the full read's errors, or nothing. Returns how many sizes gave a result.
int check_same(const std::string& text) {
  const SourceFile file("data.toml", text);
  const std::string expected = describe(read_toml(file).errors);
  int answered = 0;
  for (const std::size_t size : kSizes) {
    CAPTURE(text, size);
    const std::optional<std::vector<ParseError>> pieces = check_toml_in_pieces(file, size);
    if (!pieces) continue;
    ++answered;
    CHECK(describe(*pieces) == expected);
  }
  return answered;
}

/// Valid TOML whose headers are inside multi-line strings and arrays, after comments, quoted, indented.
const char* const kValid = R"TOML(# data
title = "rows"
owner.name = "x"
notes = """
[not_a_table]
[[nor_this]]
"""
literal = '''
[fake]
'''
matrix = [
[1, 2],
[3, 4],
]
inline = { a = 1, b = [ [1], [2] ] }

[server]
host = "h"
[server.tls]
cert = "c"
  [ "quoted key" . 'lit' ]
  value = 1
[[rows]]
id = 1
name = "a"
[[rows]]
id = 2
text = """
[[rows]]
id = 3
"""
[[rows]]
id = 4
[other]
x = [
  "[x]",
]
)TOML";

}  // namespace

TEST_CASE("pieces: a valid TOML checked in pieces of any size has no errors", "[pieces]") {
  CHECK(check_same(kValid) == static_cast<int>(std::size(kSizes)));
  CHECK(check_same("\xEF\xBB\xBF[a]\nx = 1\n[b]\ny = 2\n") == static_cast<int>(std::size(kSizes)));
  CHECK(check_same("") == static_cast<int>(std::size(kSizes)));
  CHECK(check_same(std::string(kValid) + "\r\n[crlf]\r\nx = 1\r\n") == static_cast<int>(std::size(kSizes)));
}

TEST_CASE("pieces: a TOML piece boundary is never inside a multi-line string or array", "[pieces]") {
  // With pieces of one byte every header is a boundary: a cut inside the string or the array would leave toml++
  // a broken piece (and no answer).
  const SourceFile file("data.toml", "a = '''\n[x]\n'''\nb = [\n[1],\n]\nc = \"\"\"\n[[y]]\n\"\"\"\n[t]\nk = 1\n");
  const std::optional<std::vector<ParseError>> pieces = check_toml_in_pieces(file, 1);
  REQUIRE(pieces.has_value());
  CHECK(pieces->empty());
}

TEST_CASE("pieces: what pieces share, and syntax errors, are never passed as clean", "[pieces]") {
  for (const char* text : {
           "[a]\nx = 1\n[b]\n[a]\ny = 2\n",                      // a table defined twice
           "a = 1\n[b]\n[a]\n",                                  // a header over a root key
           "a.b = 1\n[c]\n[a.b]\n",                              // a header over a dotted key's table
           "[a.b]\nx = 1\n[c]\n[a]\nb = 2\n",                    // a key over a table a header implied
           "[a]\nb = { c = 1 }\n[d]\n[a.b.e]\n",                 // a header through an inline table
           "[[a]]\nx = 1\n[b]\n[a]\n",                           // an array of tables redefined as a table
           "[a]\nx = 1\n[b]\n[[a]]\n",                           // a table redefined as an array of tables
           "[a.b]\nx = 1\n[c]\n[[a]]\n",                         // an implied table redefined as an array
           "[[a]]\nx = 1\n[b]\ny = 1\n[a.c]\nz = 1\n",           // valid: a sub-table of the last element
           "[a]\nx = 1\n[b]\ny = = 2\n",                         // a syntax error in a later piece
           "[a]\nx = 1\n[b]\ny = \"\xC3\xA9\"\nz = \xC3\xA9\n",  // non-ASCII outside a string (the guard)
           "[a]\nx = 1\n[b]\ny = 1\ny = 2\n",                    // a key repeated inside one piece
           "x = 1\n[a]\n[a.b]\nc = 1\n[a]\n",                    // a table defined after its sub-table, then again
       }) {
    check_same(text);
  }
  // A table defined after its sub-table in another piece is valid, and the pieces can prove it.
  CHECK(check_same("[a.b]\nx = 1\n[c]\n[a]\ny = 1\n") == static_cast<int>(std::size(kSizes)));
}
