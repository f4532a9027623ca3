#include "lint/parse/python_reader.hpp"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lint/parse/tree_sitter_support.hpp"

namespace lint::parse {

namespace {

// ---- Limits checked before tree-sitter sees the text ----
//
// CPython's own tokenizer limits, checked by a cheap token scan: text beyond them is reported, not parsed. They
// are also depth limits for everything that walks the tree, and no runnable script exceeds them.

/// CPython's tokenizer refuses more than 200 nested brackets ("too many nested parentheses").
constexpr std::size_t kMaxBracketDepth = 200;
/// CPython's tokenizer refuses more than 100 indentation levels.
constexpr std::size_t kMaxIndentLevels = 100;

struct LimitViolation {
  std::size_t byte = 0;
  std::string message;
};

/// The token scan behind the limits. It tokenizes like Python (strings with prefixes and triple quotes,
/// f-string replacement fields, comments, continuations, brackets, indentation) to count bracket nesting and
/// indentation levels.
class LimitScanner {
 public:
  /// `starts`, when given, receives the byte offset of every line that starts a top-level logical line at column
  /// 0 (not blank, not a comment, not inside brackets, a string or a continuation): where top-level statements
  /// may start (PythonPieces).
  explicit LimitScanner(std::string_view text, std::vector<std::uint32_t>* starts = nullptr)
      : s_(text), starts_(starts) {}

  std::optional<LimitViolation> run() {
    frames_.push_back(Frame{Mode::Code, 0, false, 0});
    while (i_ < s_.size() && !violation_) {
      token_start_ = i_;
      switch (frames_.back().mode) {
        case Mode::Code:
          if (frames_.size() == 1) {
            top_code();
          } else {
            code_step();
          }
          break;
        case Mode::FString:
          fstring_step();
          break;
        case Mode::FormatSpec:
          format_spec_step();
          break;
      }
    }
    return violation_;
  }

 private:
  enum class Mode : std::uint8_t { Code, FString, FormatSpec };
  /// Code: the file itself, or an f-string replacement field that ends at `depth` (its own `{`).
  struct Frame {
    Mode mode;
    char quote;
    bool triple;
    std::size_t depth;
  };

  static bool is_newline(char c) { return c == '\n' || c == '\r'; }
  /// Letters, `_`, digits and every byte of a UTF-8 sequence, by table: most bytes of a file are in words.
  static constexpr std::array<bool, 256> kWord = [] {
    std::array<bool, 256> t{};
    for (int c = 0; c < 256; ++c) {
      t[static_cast<std::size_t>(c)] =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80 || (c >= '0' && c <= '9');
    }
    return t;
  }();
  static bool is_word(char c) { return kWord[static_cast<unsigned char>(c)]; }

  /// What a byte starts in code outside f-strings (top_code): one table lookup instead of a chain of compares.
  enum class Class : std::uint8_t { Other, Newline, Backslash, Hash, Quote, Word, Open, Close, Inert };
  static constexpr std::array<Class, 256> kClass = [] {
    std::array<Class, 256> t{};
    for (int c = 0; c < 256; ++c) {
      const auto ch = static_cast<char>(c);
      Class k = Class::Other;
      if (ch == '\n' || ch == '\r') {
        k = Class::Newline;
      } else if (ch == '\\') {
        k = Class::Backslash;
      } else if (ch == '#') {
        k = Class::Hash;
      } else if (ch == '"' || ch == '\'') {
        k = Class::Quote;
      } else if (kWord[static_cast<std::size_t>(c)]) {
        k = Class::Word;
      } else if (ch == '(' || ch == '[' || ch == '{') {
        k = Class::Open;
      } else if (ch == ')' || ch == ']' || ch == '}') {
        k = Class::Close;
      } else if (std::string_view(" \t\f.,:;=+-*/%&|^~<>!@").find(ch) != std::string_view::npos) {
        k = Class::Inert;  // is_inert()
      }
      t[static_cast<std::size_t>(c)] = k;
    }
    return t;
  }();
  /// Bytes a plain string's scan stops at: a backslash, a quote, a line end.
  static constexpr std::array<bool, 256> kStringStop = [] {
    std::array<bool, 256> t{};
    for (const char c : {'\\', '"', '\'', '\n', '\r'}) t[static_cast<unsigned char>(c)] = true;
    return t;
  }();

  [[nodiscard]] char at(std::size_t k) const { return k < s_.size() ? s_[k] : '\0'; }

  /// Skips one line end (LF, CRLF or a lone CR) at i_.
  void skip_newline() { i_ += (s_[i_] == '\r' && at(i_ + 1) == '\n') ? 2 : 1; }

  void fail(std::string message) {
    if (!violation_) violation_ = LimitViolation{token_start_, std::move(message)};
  }

  void open_level() {
    if (++depth_ > kMaxBracketDepth) {
      fail("too many nested parentheses (more than " + std::to_string(kMaxBracketDepth) + ")");
    }
  }

  void close_level() {
    if (depth_ > 0) --depth_;  // a stray closer: a syntax error tree-sitter reports
  }

  /// Measures the indentation of a logical line as the grammar's scanner does and keeps CPython's stack of
  /// indentation widths.
  void indentation() {
    at_line_start_ = false;
    std::size_t width = 0;
    const std::size_t line_begin = i_;
    std::size_t k = i_;
    for (; k < s_.size(); ++k) {
      const char c = s_[k];
      if (c == ' ') {
        ++width;
      } else if (c == '\t') {
        width += 8;
      } else if (c == '\f') {
        width = 0;
      } else {
        break;
      }
    }
    i_ = k;
    if (k >= s_.size() || is_newline(s_[k]) || s_[k] == '#' || s_[k] == '\\') {
      at_line_start_ = k < s_.size() && s_[k] != '\\';  // blank and comment lines do not indent
      return;
    }
    if (starts_ != nullptr && k == line_begin) starts_->push_back(static_cast<std::uint32_t>(k));
    if (width > indents_.back()) {
      indents_.push_back(width);
      if (indents_.size() - 1 > kMaxIndentLevels) {
        token_start_ = k;
        fail("too many levels of indentation (more than " + std::to_string(kMaxIndentLevels) + ")");
      }
    } else {
      while (indents_.size() > 1 && width < indents_.back()) indents_.pop_back();
    }
  }

  /// Skips a string whose prefix has been read; i_ is at its first quote. An f-string is not skipped: its
  /// replacement fields are code, so a FString frame takes over.
  void string(bool formatted) {
    const char q = s_[i_];
    const bool triple = at(i_ + 1) == q && at(i_ + 2) == q;
    i_ += triple ? 3 : 1;
    if (formatted) {
      frames_.push_back(Frame{Mode::FString, q, triple, 0});
      return;
    }
    while (i_ < s_.size()) {
      while (i_ < s_.size() && !kStringStop[static_cast<unsigned char>(s_[i_])]) ++i_;
      if (i_ >= s_.size()) break;
      const char c = s_[i_];
      if (c == '\\') {
        i_ += 2;  // in raw strings too, a backslash keeps the next quote from closing the string
        continue;
      }
      if (c == q && (!triple || (at(i_ + 1) == q && at(i_ + 2) == q))) {
        i_ += triple ? 3 : 1;
        break;
      }
      if (!triple && is_newline(c)) break;  // unterminated: the grammar stops there as well
      ++i_;
    }
  }

  /// A name, keyword or number; a string prefix (`rb'`, `f"`) starts a string.
  void word() {
    const std::size_t start = i_;
    while (i_ < s_.size() && is_word(s_[i_])) ++i_;
    const std::string_view w = s_.substr(start, i_ - start);
    const char next = at(i_);
    if ((next == '"' || next == '\'') && w.size() <= 2) {
      bool prefix = true;
      bool formatted = false;
      for (char c : w) {
        const char lower = static_cast<char>(c | 0x20);
        if (lower == 'f' || lower == 't') {
          formatted = true;
        } else if (lower != 'r' && lower != 'b' && lower != 'u') {
          prefix = false;
        }
      }
      if (prefix) string(formatted);
    }
  }

  void code_step() {
    const Frame& f = frames_.back();
    const bool top = frames_.size() == 1;
    if (top && at_line_start_ && depth_ == 0) {
      indentation();
      if (i_ >= s_.size() || violation_) return;
      token_start_ = i_;
    }
    const char c = s_[i_];
    if (is_newline(c)) {
      skip_newline();
      if (top && depth_ == 0) at_line_start_ = true;
    } else if (c == '\\' && (is_newline(at(i_ + 1)))) {
      ++i_;
      skip_newline();  // a continuation joins the lines
    } else if (c == '#') {
      while (i_ < s_.size() && !is_newline(s_[i_])) ++i_;
    } else if (c == '"' || c == '\'') {
      string(false);
    } else if (is_word(c)) {
      word();
    } else if (c == '(' || c == '[' || c == '{') {
      ++i_;
      open_level();
    } else if (c == ')' || c == ']' || c == '}') {
      ++i_;
      if (!top && depth_ == f.depth) {
        if (c != '}') return;  // a stray closer must not close the brackets around the f-string
        close_level();
        frames_.pop_back();  // the replacement field ends; back to the f-string's text
        return;
      }
      close_level();
    } else if (!top && depth_ == f.depth && c == ':' && at(i_ + 1) != '=') {
      ++i_;
      frames_.push_back(Frame{Mode::FormatSpec, f.quote, f.triple, f.depth});
    } else {
      ++i_;  // whitespace, operators, `;`, error bytes
      if (top) {
        // A run of them in one step: outside f-strings none of them changes the state.
        while (i_ < s_.size() && is_inert(s_[i_])) ++i_;
      }
    }
  }

  /// code_step() for the file's own code (no f-string open), token after token until an f-string opens: the
  /// same decisions, a byte's kind read from one table.
  void top_code() {
    const std::size_t n = s_.size();
    while (i_ < n && !violation_ && frames_.size() == 1) {
      token_start_ = i_;
      if (at_line_start_ && depth_ == 0) {
        indentation();
        if (i_ >= n || violation_) return;
        token_start_ = i_;
      }
      const char c = s_[i_];
      switch (kClass[static_cast<unsigned char>(c)]) {
        case Class::Newline:
          skip_newline();
          if (depth_ == 0) at_line_start_ = true;
          break;
        case Class::Backslash:
          ++i_;
          if (i_ < n && is_newline(s_[i_])) {
            skip_newline();  // a continuation joins the lines
          } else {
            while (i_ < n && kClass[static_cast<unsigned char>(s_[i_])] == Class::Inert) ++i_;  // a stray backslash
          }
          break;
        case Class::Hash:
          while (i_ < n && !is_newline(s_[i_])) ++i_;
          break;
        case Class::Quote:
          string(false);
          break;
        case Class::Word:
          word();
          break;
        case Class::Open:
          ++i_;
          open_level();
          break;
        case Class::Close:
          ++i_;
          close_level();
          break;
        case Class::Inert:
        case Class::Other:
          ++i_;  // whitespace, operators, `;`, error bytes; then a run of inert ones in one step
          while (i_ < n && kClass[static_cast<unsigned char>(s_[i_])] == Class::Inert) ++i_;
          break;
      }
    }
  }

  /// Whitespace and operators (not brackets, quotes, `#`, `\\`, line ends or word characters): bytes that only
  /// advance the scan in code outside f-strings (where `:` may start a format spec, so this is not used there).
  static bool is_inert(char c) {
    switch (c) {
      case ' ':
      case '\t':
      case '\f':
      case '.':
      case ',':
      case ':':
      case ';':
      case '=':
      case '+':
      case '-':
      case '*':
      case '/':
      case '%':
      case '&':
      case '|':
      case '^':
      case '~':
      case '<':
      case '>':
      case '!':
      case '@':
        return true;
      default:
        return false;
    }
  }

  /// The literal text of an f-string: `{{`/`}}` are text, `{` opens a replacement field.
  void fstring_step() {
    const Frame f = frames_.back();
    const char c = s_[i_];
    if (c == '\\') {
      i_ += (at(i_ + 1) == f.quote || at(i_ + 1) == '\\' || is_newline(at(i_ + 1))) ? 2 : 1;
    } else if (c == '{' && at(i_ + 1) == '{') {
      i_ += 2;
    } else if (c == '{') {
      ++i_;
      open_level();
      frames_.push_back(Frame{Mode::Code, f.quote, f.triple, depth_});
    } else if (c == f.quote && (!f.triple || (at(i_ + 1) == f.quote && at(i_ + 2) == f.quote))) {
      i_ += f.triple ? 3 : 1;
      frames_.pop_back();
    } else if (!f.triple && is_newline(c)) {
      frames_.pop_back();  // unterminated
    } else {
      ++i_;
    }
  }

  /// A format spec (`{x:>{width}}`): text that may hold nested replacement fields; `}` ends the field.
  void format_spec_step() {
    const Frame f = frames_.back();
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      open_level();
      frames_.push_back(Frame{Mode::Code, f.quote, f.triple, depth_});
    } else if (c == '}') {
      ++i_;
      frames_.pop_back();  // the spec
      close_level();
      frames_.pop_back();  // the replacement field
    } else if (c == f.quote || (!f.triple && is_newline(c))) {
      frames_.pop_back();  // malformed: let the enclosing f-string see the quote
      frames_.pop_back();
      close_level();
    } else {
      ++i_;
    }
  }

  std::string_view s_;
  std::vector<std::uint32_t>* starts_;
  std::size_t i_ = 0;
  std::size_t token_start_ = 0;  ///< where the token being read starts: the position of a violation
  std::vector<Frame> frames_;
  std::size_t depth_ = 0;  ///< open brackets
  std::vector<std::size_t> indents_{0};
  bool at_line_start_ = true;
  std::optional<LimitViolation> violation_;
};

/// tree-sitter-python ends lines only at LF (a lone CR is whitespace to it), while Python accepts LF, CRLF and
/// CR. Lone CRs become LFs in the copy tree-sitter reads; the length is unchanged, so byte offsets still index
/// the original text.
std::optional<std::string> normalise_lone_cr(const std::string& text) {
  std::optional<std::string> copy;
  for (std::size_t i = text.find('\r'); i != std::string::npos; i = text.find('\r', i + 1)) {
    if (i + 1 < text.size() && text[i + 1] == '\n') continue;
    if (!copy) copy = text;
    (*copy)[i] = '\n';
  }
  return copy;
}

/// A notebook exported as a Python file: Databricks' source format (its first line is `# Databricks notebook
/// source`) or percent cells (`# %%`, Jupyter / VS Code / jupytext), whose first cell marker comes after at most a
/// short header. Only the head of the file is read: every Python file passes here.
bool notebook_export(std::string_view text) {
  if (text.starts_with("# Databricks notebook source") || text.starts_with("# %%")) return true;
  return text.substr(0, 4096).find("\n# %%") != std::string_view::npos;
}

/// The copy tree-sitter reads: lone CRs as LFs (normalise_lone_cr) and, in a notebook export, IPython's shell escapes
/// and magics at the start of a line (`!deepspeed --num_gpus 8 \` with its continuation lines, `%pip install x`)
/// blanked: IPython runs them, Python cannot parse them. The length is unchanged, so offsets index the original.
std::optional<std::string> normalise_for_parse(const std::string& text) {
  std::optional<std::string> copy = normalise_lone_cr(text);
  if (!notebook_export(text)) return copy;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t eol = std::min(text.find('\n', i), text.size());
    if (text[i] == '!' || text[i] == '%') {
      if (!copy) copy = text;
      for (;;) {
        for (std::size_t k = i; k < eol; ++k) {
          if ((*copy)[k] != '\r') (*copy)[k] = ' ';
        }
        std::size_t last = eol;
        while (last > i && text[last - 1] == '\r') --last;
        if (eol >= text.size() || last == i || text[last - 1] != '\\') break;
        i = eol + 1;  // a backslash at the end of the line continues the command
        eol = std::min(text.find('\n', i), text.size());
      }
    }
    i = eol + 1;
  }
  return copy;
}

/// Deletes a parser on every path out of `parse`.
struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};

/// The thread's Python parser, reset and reading the whole text (null when the grammar does not load). One parser
/// per thread, reset before each parse (a parse stopped by its budget must not be resumed): creating and deleting
/// one per file cost as much as reading the file.
TSParser* python_parser() {
  static thread_local std::unique_ptr<TSParser, ParserDeleter> parser;
  if (!parser) {
    parser.reset(ts_parser_new());
    if (parser && !ts_parser_set_language(parser.get(), tree_sitter_python())) parser.reset();
  } else {
    ts_parser_reset(parser.get());
  }
  if (parser) ts_parser_set_included_ranges(parser.get(), nullptr, 0);
  return parser.get();
}

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
  for (;;) {
    const TSNode node = ts_tree_cursor_current_node(&cursor);
    bool descend = false;
    if (ts_node_is_missing(node)) {
      add(file.region(ts_node_start_byte(node), ts_node_end_byte(node)), missing_message(node));
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
  if (errors.empty()) errors.push_back(ParseError{file.region(0, 0), "invalid syntax"});
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
  if (text.size() >= std::numeric_limits<std::uint32_t>::max()) {
    result.errors_.push_back(ParseError{file.region(0, 0), "file too large to parse (4 GiB or more)"});
    return result;
  }
  const std::optional<std::string> normalised = normalise_for_parse(text);
  const std::string& input = normalised ? *normalised : text;
  if (auto violation = LimitScanner(input).run()) {
    const std::size_t at = violation->byte;
    result.errors_.push_back(ParseError{file.region(at, at + 1), std::move(violation->message)});
    return result;
  }
  TSParser* parser = python_parser();
  if (parser == nullptr) {
    // Only an ABI mismatch between the grammar and the runtime gets here: a build problem, not an input one.
    result.errors_.push_back(ParseError{file.region(0, 0), "internal error: the Python grammar does not load"});
    return result;
  }
  const std::uint64_t budget = parse_budget_ns(text.size());
  ParseStop stop = ParseStop::None;
  result.tree_ = parse_with_budget(parser, input, budget, &stop);
  if (result.tree_ == nullptr) {
    ts_parser_reset(parser);  // the stopped parse's stacks are not kept until the next file
    result.errors_.push_back(ParseError{
        file.region(0, 0),
        std::string(stop == ParseStop::Memory ? "file too large to analyse: " : "syntax too broken to analyse: ") +
            parse_stop_message(stop, budget, input.size())});
    return result;
  }
  result.errors_ = collect_errors(file, ts_tree_root_node(result.tree_));
  return result;
}

namespace {

/// Whether the line at `at` starts with `word` followed by a character that cannot continue a name.
bool starts_with_keyword(std::string_view text, std::size_t at, std::string_view word) {
  if (text.substr(at, word.size()) != word) return false;
  const std::size_t after = at + word.size();
  if (after >= text.size()) return true;
  const auto c = static_cast<unsigned char>(text[after]);
  return !(std::isalnum(c) != 0 || c == '_' || c >= 0x80);
}

}  // namespace

std::optional<PythonPieces> PythonPieces::split(const source::SourceFile& file, std::size_t piece_bytes) {
  const std::string& text = file.text();
  if (text.size() >= std::numeric_limits<std::uint32_t>::max()) return std::nullopt;
  std::vector<std::uint32_t> candidates;
  PythonPieces pieces(file, normalise_for_parse(text));
  const std::string& input = pieces.normalised_ ? *pieces.normalised_ : text;
  if (LimitScanner(input, &candidates).run()) return std::nullopt;
  // A line at column 0 continues the statement before it when it is `else`, `elif`, `except` or `finally`, or
  // when the line before it is a decorator.
  pieces.starts_.push_back(0);
  bool after_decorator = false;
  for (const std::uint32_t at : candidates) {
    const bool continues = after_decorator || starts_with_keyword(text, at, "else") ||
                           starts_with_keyword(text, at, "elif") || starts_with_keyword(text, at, "except") ||
                           starts_with_keyword(text, at, "finally");
    after_decorator = text[at] == '@';
    if (!continues && at != 0) pieces.starts_.push_back(at);
  }
  pieces.rows_.reserve(pieces.starts_.size());
  std::uint32_t row = 0;
  std::size_t counted = 0;
  for (const std::uint32_t at : pieces.starts_) {
    row += static_cast<std::uint32_t>(std::count(input.begin() + static_cast<std::ptrdiff_t>(counted),
                                                 input.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
    counted = at;
    pieces.rows_.push_back(row);
  }
  piece_bytes = std::max<std::size_t>(piece_bytes, 1);
  pieces.pieces_.push_back(0);
  for (std::uint32_t j = 1; j < pieces.starts_.size(); ++j) {
    if (pieces.starts_[j] - pieces.starts_[pieces.pieces_.back()] >= piece_bytes) pieces.pieces_.push_back(j);
  }
  return pieces;
}

std::size_t PythonPieces::end(std::size_t i) const {
  return i + 1 < pieces_.size() ? starts_[pieces_[i + 1]] : file_->text().size();
}

PythonTree PythonPieces::parse(std::size_t i) const {
  const std::size_t end_statement = i + 1 < pieces_.size() ? pieces_[i + 1] : starts_.size();
  return parse_range(pieces_[i], end_statement);
}

PythonTree PythonPieces::parse_statement_at(std::size_t at) const {
  const auto it = std::upper_bound(starts_.begin(), starts_.end(), at);
  const auto first = static_cast<std::size_t>(it - starts_.begin()) - 1;  // starts_[0] is 0 <= at
  return parse_range(first, first + 1);
}

PythonTree PythonPieces::parse_range(std::size_t first_statement, std::size_t end_statement) const {
  PythonTree result;
  TSParser* parser = python_parser();
  if (parser == nullptr) return result;
  const std::string& input = normalised_ ? *normalised_ : file_->text();
  TSRange range{};
  range.start_byte = starts_[first_statement];
  range.start_point = TSPoint{rows_[first_statement], 0};
  if (end_statement < starts_.size()) {
    range.end_byte = starts_[end_statement];
    range.end_point = TSPoint{rows_[end_statement], 0};
  } else {
    range.end_byte = std::numeric_limits<std::uint32_t>::max();
    range.end_point = TSPoint{std::numeric_limits<std::uint32_t>::max(), std::numeric_limits<std::uint32_t>::max()};
  }
  if (!ts_parser_set_included_ranges(parser, &range, 1)) return result;
  const std::size_t end_byte = end_statement < starts_.size() ? starts_[end_statement] : input.size();
  TSTree* tree = parse_with_budget(parser, input, parse_budget_ns(end_byte - range.start_byte));
  ts_parser_reset(parser);
  ts_parser_set_included_ranges(parser, nullptr, 0);
  if (tree == nullptr) return result;
  if (ts_node_has_error(ts_tree_root_node(tree))) {
    ts_tree_delete(tree);
    return result;
  }
  result.tree_ = tree;
  return result;
}

}  // namespace lint::parse
