#include "lint/parse/python_reader.hpp"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

// The pinned tree-sitter-python grammar (grammars/manifest.txt), compiled from its generated C.
extern "C" const TSLanguage* tree_sitter_python(void);

namespace lint::parse {

namespace {

// ---- Limits checked before tree-sitter sees the text ----
//
// Debian's tree-sitter runtime (0.20.7) stores a node's child count in 16 bits (widened upstream in 0.20.8).
// When error recovery wraps more than 65535 parse-stack entries into one ERROR node the count wraps and the
// runtime frees a wrong pointer. The parse stack grows with constructs that cannot be reduced yet: open
// brackets, chains of prefix operators (`not not ...`), right-associative chains (`a = b = ...`, `2 ** 2 ** ...`)
// and the like. A cheap token scan bounds that growth first; text beyond the bounds is reported, not parsed.
// Each bound is also one CPython enforces or cannot compile past, so no runnable script is refused.

/// CPython's tokenizer refuses more than 200 nested brackets ("too many nested parentheses").
constexpr std::size_t kMaxBracketDepth = 200;
/// CPython's tokenizer refuses more than 100 indentation levels.
constexpr std::size_t kMaxIndentLevels = 100;
/// An upper estimate of the parse-stack entries one statement can pile up, far below 65535.
constexpr std::size_t kMaxPendingEntries = 10000;

struct LimitViolation {
  std::size_t byte = 0;
  std::string message;
};

/// The token scan behind the limits. It tokenizes like Python (strings with prefixes and triple quotes,
/// f-string replacement fields, comments, continuations, brackets, indentation) and keeps, per bracket level,
/// a count of tokens the parser cannot have reduced yet: every token, except that operands joined by a
/// left-associative binary operator, implicitly concatenated strings and items separated by commas are
/// reduced as they come. The estimate errs high, never low, for the constructs that grow the stack.
class LimitScanner {
 public:
  explicit LimitScanner(std::string_view text) : s_(text) {}

  std::optional<LimitViolation> run() {
    levels_.push_back(0);
    frames_.push_back(Frame{Mode::Code, 0, false, 0});
    while (i_ < s_.size() && !violation_) {
      token_start_ = i_;
      switch (frames_.back().mode) {
        case Mode::Code:
          code_step();
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
  static bool is_word_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
  }
  static bool is_word(char c) { return is_word_start(c) || (c >= '0' && c <= '9'); }

  [[nodiscard]] char at(std::size_t k) const { return k < s_.size() ? s_[k] : '\0'; }

  /// Skips one line end (LF, CRLF or a lone CR) at i_.
  void skip_newline() { i_ += (s_[i_] == '\r' && at(i_ + 1) == '\n') ? 2 : 1; }

  void fail(std::string message) {
    if (!violation_) violation_ = LimitViolation{token_start_, std::move(message)};
  }

  std::size_t depth() const { return levels_.size() - 1; }

  void add(std::size_t n) {
    levels_.back() += n;
    pending_ += n;
    // Each open bracket holds a few entries of its own (the bracket, the items reduced so far).
    if (pending_ + 4 * depth() > kMaxPendingEntries) {
      fail("expression too deeply nested to analyse (more than " + std::to_string(kMaxPendingEntries) +
           " unfinished tokens in one statement)");
    }
  }

  void open_level(bool counted) {
    if (counted) add(1);
    levels_.push_back(0);
    if (depth() > kMaxBracketDepth) {
      fail("too many nested parentheses (more than " + std::to_string(kMaxBracketDepth) + ")");
    }
  }

  void close_level() {
    if (depth() == 0) return;  // a stray closer: a syntax error tree-sitter reports, it grows nothing
    pending_ -= levels_.back();
    levels_.pop_back();
  }

  void end_statement() {
    levels_.assign(1, 0);
    pending_ = 0;
    operand_ = after_binop_ = prev_string_ = false;
    at_line_start_ = true;
  }

  void separator() {
    pending_ -= levels_.back();
    levels_.back() = 0;
    add(1);
    operand_ = after_binop_ = prev_string_ = false;
  }

  void operand(bool is_string) {
    if (!after_binop_ && !(is_string && prev_string_)) add(1);
    operand_ = true;
    after_binop_ = false;
    prev_string_ = is_string;
  }

  void other() {
    add(1);
    operand_ = after_binop_ = prev_string_ = false;
  }

  void binop() {
    operand_ = false;
    after_binop_ = true;
    prev_string_ = false;
  }

  /// Measures the indentation of a logical line as the grammar's scanner does and keeps CPython's stack of
  /// indentation widths.
  void indentation() {
    at_line_start_ = false;
    std::size_t width = 0;
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
    operand(true);
  }

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
      if (prefix) {
        string(formatted);
        return;
      }
    }
    if (operand_ && (w == "and" || w == "or" || w == "in" || w == "is" || w == "not")) {
      binop();  // `not` after an operand is `not in`
    } else if (w == "True" || w == "False" || w == "None" || !is_keyword(w)) {
      operand(false);
    } else {
      other();
    }
  }

  static bool is_keyword(std::string_view w) {
    static constexpr std::string_view kKeywords[] = {
        "and",      "as",     "assert",  "async", "await", "break",  "class", "continue", "def",  "del",  "elif",
        "else",     "except", "finally", "for",   "from",  "global", "if",    "import",   "in",   "is",   "lambda",
        "nonlocal", "not",    "or",      "pass",  "raise", "return", "try",   "while",    "with", "yield"};
    for (std::string_view k : kKeywords) {
      if (k == w) return true;
    }
    return false;
  }

  void number() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (is_word(c) || c == '.') {
        ++i_;
      } else if ((c == '+' || c == '-') && (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E')) {
        ++i_;  // an exponent's sign (`1e-5`)
      } else {
        break;
      }
    }
    operand(false);
  }

  /// Operators: the longest of the three-, two- and one-character spellings.
  void op() {
    static constexpr std::string_view kThree[] = {"**=", "//=", ">>=", "<<=", "..."};
    static constexpr std::string_view kTwo[] = {"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", ":=",
                                                "+=", "-=", "*=", "/=", "%=", "@=", "&=", "|=", "^=", "<>"};
    // Left-associative binary operators: `a + b + c` is reduced as it is read.
    static constexpr std::string_view kBinary[] = {"+", "-", "*", "/", "//", "%",  "@",  "<<", ">>", "&",
                                                   "|", "^", "<", ">", "<=", ">=", "==", "!=", "<>", "."};
    std::string_view tok = s_.substr(i_, 1);
    for (std::string_view t : kThree) {
      if (s_.substr(i_, 3) == t) tok = t;
    }
    if (tok.size() == 1) {
      for (std::string_view t : kTwo) {
        if (s_.substr(i_, 2) == t) tok = t;
      }
    }
    i_ += tok.size();
    if (tok == "...") {
      operand(false);
      return;
    }
    if (operand_) {
      for (std::string_view b : kBinary) {
        if (b == tok) {
          binop();
          return;
        }
      }
    }
    other();
  }

  void code_step() {
    Frame& f = frames_.back();
    const bool top = frames_.size() == 1;
    if (top && at_line_start_ && depth() == 0) {
      indentation();
      if (i_ >= s_.size() || violation_) return;
      token_start_ = i_;
    }
    const char c = s_[i_];
    if (c == ' ' || c == '\t' || c == '\f') {
      ++i_;
    } else if (is_newline(c)) {
      skip_newline();
      if (top && depth() == 0) end_statement();
    } else if (c == '\\' && (is_newline(at(i_ + 1)))) {
      ++i_;
      skip_newline();  // a continuation joins the lines
    } else if (c == '#') {
      while (i_ < s_.size() && !is_newline(s_[i_])) ++i_;
    } else if (c == '"' || c == '\'') {
      string(false);
    } else if (is_word_start(c)) {
      word();
    } else if ((c >= '0' && c <= '9') || (c == '.' && at(i_ + 1) >= '0' && at(i_ + 1) <= '9')) {
      number();
    } else if (c == '(' || c == '[' || c == '{') {
      ++i_;
      // A call or subscript (`f(`, `a[`) and a group right after a binary operator fold into one operand.
      open_level(!operand_ && !after_binop_);
      operand_ = after_binop_ = prev_string_ = false;
    } else if (c == ')' || c == ']' || c == '}') {
      if (!top && depth() == f.depth) {
        ++i_;
        if (c != '}') {
          other();  // a stray closer must not close the brackets around the f-string
          return;
        }
        close_level();
        frames_.pop_back();  // the replacement field ends; back to the f-string's text
        return;
      }
      ++i_;
      close_level();
      operand_ = true;
      after_binop_ = prev_string_ = false;
    } else if (c == ',' || c == ';') {
      ++i_;
      if (c == ';' && top && depth() == 0) {
        end_statement();
        at_line_start_ = false;
      } else {
        separator();
      }
    } else if (!top && depth() == f.depth && c == ':' && at(i_ + 1) != '=') {
      ++i_;
      frames_.push_back(Frame{Mode::FormatSpec, f.quote, f.triple, f.depth});
    } else if (std::strchr("+-*/%@&|^~<>=!.:", c) != nullptr) {
      op();
    } else {
      ++i_;
      other();  // `$`, `?`, control bytes: error tokens, counted
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
      open_level(true);
      frames_.push_back(Frame{Mode::Code, f.quote, f.triple, depth()});
      operand_ = after_binop_ = prev_string_ = false;
    } else if (c == f.quote && (!f.triple || (at(i_ + 1) == f.quote && at(i_ + 2) == f.quote))) {
      i_ += f.triple ? 3 : 1;
      frames_.pop_back();
      operand(true);
    } else if (!f.triple && is_newline(c)) {
      frames_.pop_back();  // unterminated
      operand(true);
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
      open_level(true);
      frames_.push_back(Frame{Mode::Code, f.quote, f.triple, depth()});
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
  std::size_t i_ = 0;
  std::size_t token_start_ = 0;  ///< where the token being read starts: the position of a violation
  std::vector<Frame> frames_;
  std::vector<std::size_t> levels_;  ///< unreduced-token estimate per open bracket level
  std::size_t pending_ = 0;          ///< sum of levels_
  std::vector<std::size_t> indents_{0};
  bool at_line_start_ = true;
  bool operand_ = false;      ///< the last token ended an operand
  bool after_binop_ = false;  ///< the last token was a left-associative binary operator
  bool prev_string_ = false;  ///< the last operand was a string (implicit concatenation follows)
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

/// Error recovery in this runtime is superlinear on some broken input (thousands of lines that each hold an
/// error take minutes), so a parse gets a budget of CPU time far above the normal cost (several MB/s). CPU
/// time, not wall time: a machine busy with other work must not make a valid file fail.
std::uint64_t parse_budget_ns(std::size_t bytes) {
  constexpr std::uint64_t kBase = 5'000'000'000;         // 5 s
  constexpr std::uint64_t kPerMegabyte = 2'000'000'000;  // + 2 s per MB
  return kBase + kPerMegabyte * (bytes / (1024 * 1024));
}

std::uint64_t thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<std::uint64_t>(t.tv_sec) * 1'000'000'000U + static_cast<std::uint64_t>(t.tv_nsec);
}

/// Hands tree-sitter the text in chunks and, at each chunk, checks the CPU budget; past it, it raises the
/// parser's cancellation flag (polled every 100 parse operations). Error recovery keeps advancing through the
/// text, so chunks keep being asked for.
struct BudgetedInput {
  static constexpr std::uint32_t kChunk = 16 * 1024;
  std::string_view text;
  std::uint64_t deadline_ns = 0;
  std::size_t cancel = 0;

  static const char* read(void* payload, std::uint32_t byte, TSPoint /*position*/, std::uint32_t* bytes_read) {
    auto* self = static_cast<BudgetedInput*>(payload);
    if (thread_cpu_ns() > self->deadline_ns) self->cancel = 1;
    if (byte >= self->text.size()) {
      *bytes_read = 0;
      return "";
    }
    *bytes_read = static_cast<std::uint32_t>(std::min<std::size_t>(kChunk, self->text.size() - byte));
    return self->text.data() + byte;
  }
};

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
  if (auto violation = LimitScanner(text).run()) {
    const std::size_t at = violation->byte;
    result.errors_.push_back(ParseError{file.region(at, at + 1), std::move(violation->message)});
    return result;
  }
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!parser || !ts_parser_set_language(parser.get(), tree_sitter_python())) {
    // Only an ABI mismatch between the grammar and the runtime gets here: a build problem, not an input one.
    result.errors_.push_back(ParseError{file.region(0, 0), "internal error: the Python grammar does not load"});
    return result;
  }
  const std::optional<std::string> normalised = normalise_lone_cr(text);
  const std::uint64_t budget = parse_budget_ns(text.size());
  BudgetedInput input{normalised ? std::string_view(*normalised) : std::string_view(text), thread_cpu_ns() + budget};
  ts_parser_set_cancellation_flag(parser.get(), &input.cancel);
  // A wall-clock backstop, in case the runtime stops asking for text while it spins.
  ts_parser_set_timeout_micros(parser.get(), 4 * budget / 1000);
  result.tree_ = ts_parser_parse(parser.get(), nullptr, TSInput{&input, &BudgetedInput::read, TSInputEncodingUTF8});
  if (result.tree_ == nullptr) {
    result.errors_.push_back(ParseError{file.region(0, 0), "syntax too broken to analyse: parsing stopped after " +
                                                               std::to_string(budget / 1'000'000'000) +
                                                               " s of CPU time"});
    return result;
  }
  result.errors_ = collect_errors(file, ts_tree_root_node(result.tree_));
  return result;
}

}  // namespace lint::parse
