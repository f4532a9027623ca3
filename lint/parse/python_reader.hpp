// Python through tree-sitter-python: an error-tolerant syntax tree plus the syntax errors it contains.
#pragma once

#include <memory>
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
  PythonTree() = default;
  TSTree* tree_ = nullptr;
  std::vector<ParseError> errors_;
};

}  // namespace lint::parse
