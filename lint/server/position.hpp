// LSP positions: 0-based lines and columns counted in UTF-16 code units (the protocol's default) or UTF-8 bytes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "lint/source/source_file.hpp"

namespace lint::server {

enum class Encoding : std::uint8_t { Utf16, Utf8 };

struct LspPosition {
  std::int64_t line = 0;
  std::int64_t character = 0;
  friend bool operator==(const LspPosition&, const LspPosition&) = default;
};

/// The LSP position of byte offset `byte` (clamped to the text).
LspPosition position_of(const source::SourceFile& file, std::size_t byte, Encoding enc);
/// The byte offset of an LSP position: clamped to its line's end (before the terminator) and to the text; a
/// position inside a character that takes two UTF-16 units maps to the character's end.
std::size_t byte_of(const source::SourceFile& file, LspPosition pos, Encoding enc);

}  // namespace lint::server
