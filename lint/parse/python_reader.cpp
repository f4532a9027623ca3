#include "lint/parse/python_reader.hpp"

#include <tree_sitter/api.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_set>
#include <utility>

// The pinned tree-sitter-python grammar (grammars/manifest.txt), compiled from its generated C.
extern "C" const TSLanguage* tree_sitter_python(void);

namespace lint::parse {

namespace {

/// Deletes a parser on every path out of `parse`.
struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};

/// How a MISSING token is named in a message: `')'` for punctuation and keywords, `identifier` for named nodes.
/// Hidden grammar symbols (`_newline`, `_indent`) lose their underscore.
std::string missing_message(TSNode node) {
  std::string type = ts_node_type(node);
  if (ts_node_is_named(node)) {
    if (!type.empty() && type.front() == '_') type.erase(0, 1);
    for (char& c : type) {
      if (c == '_') c = ' ';
    }
    return "missing " + type;
  }
  return "missing '" + type + "'";
}

/// The region of an ERROR node, cut at the end of its first line: an ERROR node can swallow the rest of the
/// file, and an underline of hundreds of lines helps nobody. Its start is where the parser gave up.
source::Region error_region(const source::SourceFile& file, std::size_t begin, std::size_t end) {
  const source::Position start = file.position_at(begin);
  const std::size_t line_end = file.line_start(start.line) + file.line_text(start.line).size();
  if (end > line_end && line_end >= begin) end = line_end;
  return file.region(begin, end);
}

/// Collects ERROR and MISSING nodes in document order with an explicit cursor (no recursion, so nesting depth
/// is bounded only by memory). Subtrees without errors are skipped, and an ERROR node's children are not
/// searched: the outermost error explains the inner ones.
std::vector<ParseError> collect_errors(const source::SourceFile& file, TSNode root) {
  std::vector<ParseError> errors;
  if (!ts_node_has_error(root)) return errors;
  std::unordered_set<std::uint32_t> lines_used;
  auto add = [&](source::Region region, std::string message) {
    if (!lines_used.insert(region.begin.line).second) return;
    errors.push_back(ParseError{region, std::move(message)});
  };

  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool descend = true;
  for (;;) {
    const TSNode node = ts_tree_cursor_current_node(&cursor);
    descend = false;
    if (ts_node_is_missing(node)) {
      const std::size_t at = ts_node_start_byte(node);
      add(file.region(at, ts_node_end_byte(node)), missing_message(node));
    } else if (std::strcmp(ts_node_type(node), "ERROR") == 0) {
      add(error_region(file, ts_node_start_byte(node), ts_node_end_byte(node)), "invalid syntax");
    } else {
      descend = ts_node_has_error(node);
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      if (!ts_tree_cursor_goto_parent(&cursor)) break;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);

  // tree-sitter can flag an error only through a hidden node the cursor does not show; never report a broken
  // file as clean.
  if (errors.empty()) {
    errors.push_back(ParseError{file.region(0, 0), "invalid syntax"});
  }
  return errors;
}

}  // namespace

PythonTree::PythonTree(PythonTree&& other) noexcept
    : tree_(std::exchange(other.tree_, nullptr)), errors_(std::move(other.errors_)) {}

PythonTree& PythonTree::operator=(PythonTree&& other) noexcept {
  if (this != &other) {
    if (tree_ != nullptr) ts_tree_delete(tree_);
    tree_ = std::exchange(other.tree_, nullptr);
    errors_ = std::move(other.errors_);
  }
  return *this;
}

PythonTree::~PythonTree() {
  if (tree_ != nullptr) ts_tree_delete(tree_);
}

PythonTree PythonTree::parse(const source::SourceFile& file) {
  PythonTree result;
  const std::string& text = file.text();
  // tree-sitter addresses bytes with uint32_t.
  if (text.size() > std::numeric_limits<std::uint32_t>::max()) {
    result.errors_.push_back(ParseError{file.region(0, 0), "file too large to parse (4 GiB or more)"});
    return result;
  }
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_python())) {
    // Only an ABI mismatch between the grammar and the runtime gets here: a build problem, not an input one.
    result.errors_.push_back(ParseError{file.region(0, 0), "internal error: the Python grammar does not load"});
    return result;
  }
  result.tree_ = ts_parser_parse_string(parser.get(), nullptr, text.data(), static_cast<std::uint32_t>(text.size()));
  if (result.tree_ == nullptr) {
    result.errors_.push_back(ParseError{file.region(0, 0), "internal error: the Python parser gave no tree"});
    return result;
  }
  result.errors_ = collect_errors(file, ts_tree_root_node(result.tree_));
  return result;
}

}  // namespace lint::parse
