// Python through tree-sitter-python: an error-tolerant syntax tree plus the syntax errors it contains.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lint/parse/node.hpp"
#include "lint/source/source_file.hpp"

// TSNode is an anonymous-struct typedef in tree_sitter/api.h and cannot be forward-declared here.
struct TSTree;

namespace lint::parse {

/// Owns a tree-sitter tree of one Python file. The tree points into the SourceFile's text, which must outlive it.
class PythonTree {
 public:
  PythonTree(const PythonTree&) = delete;
  PythonTree& operator=(const PythonTree&) = delete;
  PythonTree(PythonTree&&) noexcept;
  PythonTree& operator=(PythonTree&&) noexcept;
  ~PythonTree();

  /// Parses `file`; never fails (a hopeless file gives a tree of ERROR nodes and syntax errors). Text past
  /// CPython's own limits (more than 200 nested brackets or 100 indentation levels), or a parse that exceeds its
  /// CPU budget of 5 s + 2 s per MB, gives one error and no tree.
  static PythonTree parse(const source::SourceFile& file);

  /// The tree; null when a limit stopped the parse (errors() then says why).
  [[nodiscard]] const TSTree* tree() const { return tree_; }
  /// Syntax errors (ERROR and MISSING nodes), at their exact position, outermost first, at most one per line.
  [[nodiscard]] const std::vector<ParseError>& errors() const { return errors_; }

 private:
  friend class PythonPieces;
  PythonTree() = default;
  TSTree* tree_ = nullptr;
  std::vector<ParseError> errors_;
};

/// A big Python file read a few top-level statements at a time (docs/limits.md "Huge files"): the text is cut at
/// the starts of top-level statements, found by the token scan of the limits, and each piece is parsed alone with
/// tree-sitter's included ranges (node offsets stay those of the file). A piece's tree is the same as that part
/// of the whole file's tree when the file has no syntax error; a piece with an error, or one stopped by its CPU
/// budget, gives no tree, and the caller then parses the whole file (which reports the errors as ever).
class PythonPieces {
 public:
  /// The pieces of `file`, each about `piece_bytes` (whole statements: a longer statement is a piece of its own).
  /// Nothing when the file breaks CPython's limits or is 4 GiB or more: PythonTree::parse reports that.
  static std::optional<PythonPieces> split(const source::SourceFile& file, std::size_t piece_bytes);

  [[nodiscard]] std::size_t count() const { return pieces_.size(); }
  /// The byte range of piece `i`.
  [[nodiscard]] std::size_t begin(std::size_t i) const { return starts_[pieces_[i]]; }
  [[nodiscard]] std::size_t end(std::size_t i) const;
  /// Parses piece `i` alone; a tree without errors, or none (a syntax error or the budget: parse the whole file).
  [[nodiscard]] PythonTree parse(std::size_t i) const;
  /// Parses alone the top-level statement that holds byte `at` (with the comment lines after it).
  [[nodiscard]] PythonTree parse_statement_at(std::size_t at) const;

 private:
  PythonPieces(const source::SourceFile& file, std::optional<std::string> normalised)
      : file_(&file), normalised_(std::move(normalised)) {}
  [[nodiscard]] PythonTree parse_range(std::size_t first_statement, std::size_t end_statement) const;

  const source::SourceFile* file_;
  std::optional<std::string> normalised_;  ///< the text with lone CRs made LFs, when it has any
  std::vector<std::uint32_t> starts_;      ///< byte offset of each top-level statement
  std::vector<std::uint32_t> rows_;        ///< its row (LF count before it), for tree-sitter's points
  std::vector<std::uint32_t> pieces_;      ///< index in starts_ of each piece's first statement
};

}  // namespace lint::parse
