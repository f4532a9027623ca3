// Python facts from a tree-sitter-python tree. Longer than the ~700-line guideline on purpose: most of it is one
// visitor (Extractor) whose scopes, bindings and pending dict/list assignments are shared by every node kind it
// handles; splitting it would put that private state in a header. The helpers before it (grammar symbols, child
// cursors, positions, string decoding) are the part that can move out first when it grows.
#include "lint/model/python_facts.hpp"

#include <tree_sitter/api.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "lint/model/lazy_config.hpp"
#include "lint/model/python_calls_read.hpp"
#include "lint/model/python_walk_tables.hpp"
#include "lint/parse/reader_support.hpp"
#include "lint/parse/tree_walk.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace lint::model {

std::string lazy_config_type(const PyCall& call) {
  if (call.callee != "dict" || !call.receiver.empty() || call.has_unresolved_unpacking) return {};
  const PyArg* t = call.keyword("type");
  if (t == nullptr || t->value.kind != ValueKind::Object || t->value.text.find('.') == std::string::npos) return {};
  return t->value.text;
}

const PyArg* PyCall::keyword(std::string_view key) const {
  const PyArg* found = nullptr;
  for (const PyArg& a : args) {
    if (!a.name.empty() && a.name == key) found = &a;
  }
  return found;
}

const PyArg* PyCall::positional(std::size_t index) const {
  for (const PyArg& a : args) {
    if (a.name.empty() && a.position == index) return &a;
  }
  return nullptr;
}

std::vector<const PyCall*> PythonFacts::calls_named(std::string_view name) const {
  std::vector<const PyCall*> out;
  for (const PyCall& c : calls) {
    if (c.name == name) out.push_back(&c);
  }
  return out;
}

bool PythonFacts::calls_into(std::string_view qualified) const {
  if (std::binary_search(called_imports.begin(), called_imports.end(), qualified)) return true;
  return std::any_of(calls.begin(), calls.end(), [qualified](const PyCall& c) {
    const std::string_view callee = c.callee;
    return callee.starts_with(qualified) && (callee.size() == qualified.size() || callee[qualified.size()] == '.');
  });
}

namespace {

/// Expression nesting (and name-to-definition hops) beyond this gives Unknown: it bounds the native stack
/// whatever the input, and no real launch setting is written 64 levels deep.
constexpr int kMaxDepth = 64;

/// Values resolved from one file may hold at most this many units (a value node or a byte of its text) plus
/// one per byte of the file; past it, what is left resolves to Unknown. Names are resolved by value, so
/// `a1 = [a0, a0]; a2 = [a1, a1]; ...` would otherwise double with each line.
constexpr std::uint64_t kValueBudgetBase = 250'000;
constexpr std::uint64_t kValueBudgetPerByte = 1;

/// The units a value holds: one per node, one per byte of text.
std::uint64_t value_size(const Value& v) {
  std::uint64_t n = 1 + v.text.size() + v.qualifier.size();
  for (const Value& item : v.items) n += value_size(item);
  for (const Field& f : v.fields) n += f.key.size() + value_size(f.value);
  return n;
}

/// The grammar's symbols and fields, looked up once: comparing ids is cheaper than comparing type strings on
/// every node of a large file.
struct Grammar {
  TSSymbol error, comment, identifier, attribute, call, argument_list, keyword_argument, list_splat, dictionary_splat,
      generator_expression, string, concatenated_string, string_start, string_end, interpolation, integer, float_,
      true_, false_, none, unary_operator, parenthesized_expression, list, tuple, expression_list, dictionary, pair,
      assignment, augmented_assignment, for_statement, for_in_clause, as_pattern_target, named_expression,
      global_statement, nonlocal_statement, delete_statement, function_definition, class_definition, lambda, parameters,
      lambda_parameters, typed_parameter, default_parameter, typed_default_parameter, list_splat_pattern,
      dictionary_splat_pattern, pattern_list, tuple_pattern, list_pattern, import_statement, import_from_statement,
      dotted_name, aliased_import, relative_import, import_prefix, list_comprehension, set_comprehension,
      dictionary_comprehension;
  /// By symbol: whether the fact walk acts on a node of this kind (Extractor::visit, Extractor::frame_for).
  std::unique_ptr<bool[]> acted_on;
  /// acted_on, and strings: the nodes the fact walk returns (Extractor::walk).
  std::unique_ptr<bool[]> walked;
  /// By symbol: the fewest visible descendants a node of this kind that the walk does not return must have to
  /// hold one it acts on (launchlint_tree_walk_skip_small); smaller ones are not entered. See min_descendants().
  std::unique_ptr<std::uint8_t[]> min_descendants;
  std::uint32_t symbol_count = 0;
  TSFieldId f_name, f_alias, f_module_name, f_left, f_right, f_value, f_key, f_body, f_function, f_arguments, f_object,
      f_attribute, f_parameters, f_argument, f_operator;

  static const Grammar& get() {
    static const Grammar g;
    return g;
  }

 private:
  Grammar() {
    const TSLanguage* lang = tree_sitter_python();
    auto sym = [lang](const char* name, bool named = true) {
      return ts_language_symbol_for_name(lang, name, static_cast<std::uint32_t>(std::strlen(name)), named);
    };
    auto field = [lang](const char* name) {
      return ts_language_field_id_for_name(lang, name, static_cast<std::uint32_t>(std::strlen(name)));
    };
    error = sym("ERROR");
    comment = sym("comment");
    identifier = sym("identifier");
    attribute = sym("attribute");
    call = sym("call");
    argument_list = sym("argument_list");
    keyword_argument = sym("keyword_argument");
    list_splat = sym("list_splat");
    dictionary_splat = sym("dictionary_splat");
    generator_expression = sym("generator_expression");
    string = sym("string");
    concatenated_string = sym("concatenated_string");
    string_start = sym("string_start");
    string_end = sym("string_end");
    interpolation = sym("interpolation");
    integer = sym("integer");
    float_ = sym("float");
    true_ = sym("true");
    false_ = sym("false");
    none = sym("none");
    unary_operator = sym("unary_operator");
    parenthesized_expression = sym("parenthesized_expression");
    list = sym("list");
    tuple = sym("tuple");
    expression_list = sym("expression_list");
    dictionary = sym("dictionary");
    pair = sym("pair");
    assignment = sym("assignment");
    augmented_assignment = sym("augmented_assignment");
    for_statement = sym("for_statement");
    for_in_clause = sym("for_in_clause");
    as_pattern_target = sym("as_pattern_target");
    named_expression = sym("named_expression");
    global_statement = sym("global_statement");
    nonlocal_statement = sym("nonlocal_statement");
    delete_statement = sym("delete_statement");
    function_definition = sym("function_definition");
    class_definition = sym("class_definition");
    lambda = sym("lambda");
    parameters = sym("parameters");
    lambda_parameters = sym("lambda_parameters");
    typed_parameter = sym("typed_parameter");
    default_parameter = sym("default_parameter");
    typed_default_parameter = sym("typed_default_parameter");
    list_splat_pattern = sym("list_splat_pattern");
    dictionary_splat_pattern = sym("dictionary_splat_pattern");
    pattern_list = sym("pattern_list");
    tuple_pattern = sym("tuple_pattern");
    list_pattern = sym("list_pattern");
    import_statement = sym("import_statement");
    import_from_statement = sym("import_from_statement");
    dotted_name = sym("dotted_name");
    aliased_import = sym("aliased_import");
    relative_import = sym("relative_import");
    import_prefix = sym("import_prefix");
    list_comprehension = sym("list_comprehension");
    set_comprehension = sym("set_comprehension");
    dictionary_comprehension = sym("dictionary_comprehension");
    f_name = field("name");
    f_alias = field("alias");
    f_module_name = field("module_name");
    f_left = field("left");
    f_right = field("right");
    f_value = field("value");
    f_key = field("key");
    f_body = field("body");
    f_function = field("function");
    f_arguments = field("arguments");
    f_object = field("object");
    f_attribute = field("attribute");
    f_parameters = field("parameters");
    f_argument = field("argument");
    f_operator = field("operator");
    symbol_count = ts_language_symbol_count(lang);
    acted_on = std::make_unique<bool[]>(symbol_count);  // all false
    for (const TSSymbol s : {call, assignment, augmented_assignment, for_statement, for_in_clause, as_pattern_target,
                             named_expression, global_statement, nonlocal_statement, delete_statement,
                             function_definition, class_definition, lambda, import_statement, import_from_statement,
                             list_comprehension, set_comprehension, dictionary_comprehension, generator_expression}) {
      if (s < symbol_count) acted_on[s] = true;
    }
    walked = std::make_unique<bool[]>(symbol_count);
    for (std::uint32_t s = 0; s < symbol_count; ++s) walked[s] = acted_on[s];
    if (string < symbol_count) walked[string] = true;
    min_descendants = std::make_unique<std::uint8_t[]>(symbol_count);
    set_min_descendants(sym);
  }

  /// Counting visible nodes, the node itself included, the smallest subtree of each kind the walk acts on is: a
  /// call 5 (`f()`: the call, `f`, the argument list and its two brackets), an assignment, augmented assignment,
  /// named expression, lambda or import 4 (`a=b`, `a:=b`, `lambda:0`, `import a` with its dotted name), a
  /// comprehension, `for`, `def` or `class` more; `global`, `nonlocal` and `del` 3, but those are children of a
  /// block or the module only; an `as_pattern_target` may be 1, but it is a child of an `as_pattern` only
  /// (tree-sitter-python's node-types.json). An ERROR node is not acted on (only what it holds), and error
  /// recovery adds it as an extra child, one node more. So a node that is not a block, the module or an
  /// as_pattern holds nothing the walk acts on when it has fewer than 4 visible descendants, and some kinds need
  /// more around such a subtree: an attribute holds a call only in its object, next to `.` and the name (7); a
  /// binary or comparison operator's operands are primary expressions, which hold a lambda only in brackets (7);
  /// a subscript has its brackets and value (7); a keyword argument, pair, boolean operator, argument list,
  /// list, tuple, dictionary, parameter list or parenthesized expression has two more (6). The walk returns the
  /// same nodes with or without this (tests/lint/parse/tree_walk_test.cpp checks it on every `.py` file of the
  /// repository).
  /// Hidden nodes (supertypes, repetitions, hidden rules) are entered whatever their size, but for the two
  /// supertypes that wrap nearly every expression, `expression` and `primary_expression`: they hold what the
  /// expression holds, and no statement.
  template <typename Sym>
  void set_min_descendants(Sym sym) {
    const TSLanguage* lang = tree_sitter_python();
    for (std::uint32_t s = 0; s < symbol_count; ++s) {
      const TSSymbolType type = ts_language_symbol_type(lang, static_cast<TSSymbol>(s));
      min_descendants[s] = type == TSSymbolTypeRegular || type == TSSymbolTypeAnonymous ? 4 : 0;
    }
    auto set = [this, &sym](const char* name, std::uint8_t n) {
      const TSSymbol s = sym(name, true);
      if (s < symbol_count) min_descendants[s] = n;
    };
    set("expression", 4);
    set("primary_expression", 4);
    set("module", 0);
    set("block", 0);
    set("as_pattern", 0);
    set("attribute", 7);
    set("binary_operator", 7);
    set("comparison_operator", 7);
    set("subscript", 7);
    for (const char* name : {"keyword_argument", "pair", "boolean_operator", "argument_list", "list", "tuple",
                             "dictionary", "parameters", "parenthesized_expression"}) {
      set(name, 6);
    }
  }
};

/// The fast visible-node walk (lint/parse/tree_walk.h), always deleted.
class Walk {
 public:
  explicit Walk(TSNode root) : walk_(launchlint_tree_walk_new(root)) {}
  Walk(const Walk&) = delete;
  Walk& operator=(const Walk&) = delete;
  ~Walk() { launchlint_tree_walk_delete(walk_); }
  /// False at the end, and when memory ran out (then the facts of the rest of the file are missing).
  bool next(bool descend, LaunchlintTreeStep& step) {
    return walk_ != nullptr && launchlint_tree_walk_next(walk_, descend, &step);
  }
  [[nodiscard]] TSFieldId field() const { return launchlint_tree_walk_field(walk_); }
  [[nodiscard]] TSFieldId ancestor_field(std::uint32_t depth) const {
    return launchlint_tree_walk_ancestor_field(walk_, depth);
  }
  void keep(const bool* keep, std::uint32_t count) {
    if (walk_ != nullptr) launchlint_tree_walk_keep(walk_, keep, count);
  }
  void skip_small(const std::uint8_t* min_descendants, std::uint32_t count) {
    if (walk_ != nullptr) launchlint_tree_walk_skip_small(walk_, min_descendants, count);
  }

 private:
  LaunchlintTreeWalk* walk_;
};

struct Child {
  TSNode node;
  TSFieldId field;
};

/// Reads the direct children of nodes in one pass each, through one reused walk (lint/parse/tree_walk.h: the
/// children and fields a cursor gives, far cheaper). Not ts_node_child(i) in a loop: indexing children is linear
/// per call in this runtime, which would make a 100k-element literal quadratic; and one reused walk, because
/// creating one allocates.
class ChildReader {
 public:
  ChildReader() = default;
  ChildReader(const ChildReader&) = delete;
  ChildReader& operator=(const ChildReader&) = delete;
  ~ChildReader() { launchlint_tree_walk_delete(walk_); }

  /// Every child with its field id (as a cursor gives them).
  std::vector<Child> all(TSNode node) {
    std::vector<Child> out;
    LaunchlintTreeStep step{};
    if (!start(node)) return out;
    while (next_child(step)) {
      out.push_back(Child{step.node, launchlint_tree_walk_field(walk_)});
    }
    return out;
  }

  /// Every child (as all() gives them) without its field, to `visit`, until it returns false.
  template <typename Visit>
  void each(TSNode node, Visit visit) {
    LaunchlintTreeStep step{};
    if (!start(node)) return;
    while (next_child(step)) {
      if (!visit(step)) return;
    }
  }

  /// Named children that carry meaning: comments are extras that can appear anywhere.
  std::vector<TSNode> named(TSNode node) {
    std::vector<TSNode> out;
    named(node, out);
    return out;
  }

  /// named(node) into `out` (cleared first): a caller that asks for many reuses one vector.
  void named(TSNode node, std::vector<TSNode>& out) {
    out.clear();
    if (ts_node_is_null(node)) return;
    const std::uint32_t count = ts_node_named_child_count(node);
    out.reserve(count);
    if (count <= kIndexLimit) {
      // For a handful of children, ts_node_named_child's order (the runtime's own child iteration) in one pass.
      std::array<TSNode, kIndexLimit> found{};
      if (launchlint_named_children(node, found.data(), kIndexLimit) == count) {
        for (std::uint32_t i = 0; i < count; ++i) {
          if (ts_node_symbol(found[i]) != comment_) out.push_back(found[i]);
        }
        return;
      }
      for (std::uint32_t i = 0; i < count; ++i) {
        const TSNode n = ts_node_named_child(node, i);
        if (ts_node_symbol(n) != comment_) out.push_back(n);
      }
      return;
    }
    LaunchlintTreeStep step{};
    if (!start(node)) return;
    while (next_child(step)) {
      if (step.named && step.symbol != comment_) out.push_back(step.node);
    }
  }

  TSNode first_named(TSNode node) {
    LaunchlintTreeStep step{};
    if (!start(node)) return TSNode{};
    while (next_child(step)) {
      if (step.named && step.symbol != comment_) return step.node;
    }
    return TSNode{};
  }

 private:
  /// The walk at `node`, past `node` itself: next_child() then gives its children (false when out of memory).
  bool start(TSNode node) {
    if (ts_node_is_null(node)) return false;
    if (walk_ == nullptr) {
      walk_ = launchlint_tree_walk_new(node);
      if (walk_ == nullptr) return false;
    } else {
      launchlint_tree_walk_reset(walk_, node);
    }
    LaunchlintTreeStep root{};
    entered_ = false;
    return launchlint_tree_walk_next(walk_, false, &root);
  }

  /// The next child of the node start() was given: the first call enters it, the others stay at its level.
  bool next_child(LaunchlintTreeStep& step) {
    const bool descend = !entered_;
    entered_ = true;
    return launchlint_tree_walk_next(walk_, descend, &step);
  }

  static constexpr std::uint32_t kIndexLimit = 8;
  LaunchlintTreeWalk* walk_ = nullptr;
  bool entered_ = false;
  TSSymbol comment_ = Grammar::get().comment;
};

bool is(TSNode n, TSSymbol s) {
  return !ts_node_is_null(n) && ts_node_symbol(n) == s;
}

/// Byte offsets to positions, equal to SourceFile::region but never quadratic: SourceFile counts code points
/// from the line start on every query, which on a minified one-line file costs the line's length per node.
/// Here a query close after the previous one on the same line counts only the bytes in between, and any other
/// query uses code-point counts kept for every block of 256 bytes (built on first need).
class Positions {
 public:
  explicit Positions(const source::SourceFile& file) : file_(file) {}

  source::Region region(std::size_t begin, std::size_t end) {
    const std::size_t size = file_.text().size();
    begin = std::min(begin, size);
    end = std::clamp(end, begin, size);
    const source::Position b = at(begin);
    const source::Position e = at(end);
    return source::Region{b, e, begin, end};
  }
  source::Region region(TSNode n) { return region(ts_node_start_byte(n), ts_node_end_byte(n)); }

 private:
  static constexpr std::size_t kBlock = 256;

  source::Position at(std::size_t byte) {
    if (line_ == 0 || byte < line_begin_ || byte >= line_end_) find_line(byte);
    if (ascii()) {
      // Every byte is a character: the column is the distance from the line's start.
      return source::Position{line_, static_cast<std::uint32_t>(byte - line_begin_ + 1)};
    }
    if (byte >= last_byte_ && byte - last_byte_ <= 2 * kBlock) {
      last_column_ += source::count_code_points(span(last_byte_, byte));
    } else if (byte - line_begin_ <= 2 * kBlock) {
      last_column_ = source::count_code_points(span(line_begin_, byte)) + 1;
    } else {
      last_column_ = code_points_before(byte) - code_points_before(line_begin_) + 1;
    }
    last_byte_ = byte;
    return source::Position{line_, last_column_};
  }

  /// Whether the file is all ASCII (checked once, eight bytes at a time).
  bool ascii() {
    if (ascii_ < 0) {
      const std::string& t = file_.text();
      std::uint64_t any = 0;
      std::size_t i = 0;
      for (; i + 8 <= t.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, t.data() + i, 8);
        any |= w;
      }
      for (; i < t.size(); ++i) any |= static_cast<unsigned char>(t[i]);
      ascii_ = (any & 0x8080808080808080ULL) == 0 ? 1 : 0;
    }
    return ascii_ == 1;
  }

  std::string_view span(std::size_t from, std::size_t to) const {
    return std::string_view(file_.text()).substr(from, to - from);
  }

  /// Code points in the text before `byte`.
  std::uint32_t code_points_before(std::size_t byte) {
    if (blocks_.empty()) {
      const std::string& t = file_.text();
      blocks_.reserve(t.size() / kBlock + 1);
      std::uint32_t total = 0;
      for (std::size_t b = 0; b <= t.size(); b += kBlock) {
        blocks_.push_back(total);
        total += source::count_code_points(span(b, std::min(b + kBlock, t.size())));
      }
    }
    const std::size_t block = byte / kBlock;
    return blocks_[block] + source::count_code_points(span(block * kBlock, byte));
  }

  void find_line(std::size_t byte) {
    // The last line whose start is <= byte, as SourceFile::position_at decides it.
    std::uint32_t lo = 1;
    auto hi = static_cast<std::uint32_t>(file_.line_count());
    while (lo < hi) {
      const std::uint32_t mid = lo + (hi - lo + 1) / 2;
      if (file_.line_start(mid) <= byte) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    line_ = lo;
    line_begin_ = file_.line_start(lo);
    line_end_ = lo < file_.line_count() ? file_.line_start(lo + 1) : std::numeric_limits<std::size_t>::max();
    last_byte_ = line_begin_;
    last_column_ = 1;
  }

  const source::SourceFile& file_;
  std::vector<std::uint32_t> blocks_;  ///< code points before each kBlock-byte block
  int ascii_ = -1;                     ///< ascii(): unknown (-1), no (0), yes (1)
  std::uint32_t line_ = 0;
  std::size_t line_begin_ = 0;
  std::size_t line_end_ = 0;
  std::size_t last_byte_ = 0;
  std::uint32_t last_column_ = 1;
};

void append_utf8(std::string& out, std::uint32_t cp) {
  // Python strings may hold lone surrogates; they have no UTF-8 form, so they become U+FFFD.
  if (cp > 0x10FFFFU || (cp >= 0xD800U && cp <= 0xDFFFU)) cp = 0xFFFDU;
  parse::detail::append_utf8(out, cp);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Decodes the body of a non-raw str literal as Python does: escapes, backslash-newline continuations, and
/// newlines normalised to LF. Bytes that are not valid UTF-8 are kept as they are (the linter must not crash on
/// them; they only ever reach messages).
std::string decode_string_body(std::string_view s, bool raw) {
  std::string out;
  out.reserve(s.size());
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\r') {
      out += '\n';
      i += (i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
      continue;
    }
    if (c != '\\' || raw || i + 1 >= s.size()) {
      // A raw string keeps its backslashes, but `\<newline>` still does not end it; nothing to decode.
      out += c;
      ++i;
      continue;
    }
    const char e = s[i + 1];
    i += 2;
    switch (e) {
      case '\n':
        break;
      case '\r':
        if (i < s.size() && s[i] == '\n') ++i;
        break;
      case '\\':
        out += '\\';
        break;
      case '\'':
        out += '\'';
        break;
      case '"':
        out += '"';
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
      case 'u':
      case 'U': {
        const std::size_t want = e == 'x' ? 2 : (e == 'u' ? 4 : 8);
        std::uint32_t cp = 0;
        std::size_t k = 0;
        while (k < want && i + k < s.size() && hex_digit(s[i + k]) >= 0) {
          cp = cp * 16U + static_cast<std::uint32_t>(hex_digit(s[i + k]));
          ++k;
        }
        if (k != want) {
          // Python rejects a short escape; keep the text rather than invent a character.
          out += '\\';
          out += e;
        } else {
          append_utf8(out, cp);
          i += k;
        }
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          std::uint32_t cp = static_cast<std::uint32_t>(e - '0');
          for (int k = 0; k < 2 && i < s.size() && s[i] >= '0' && s[i] <= '7'; ++k, ++i) {
            cp = cp * 8U + static_cast<std::uint32_t>(s[i] - '0');
          }
          append_utf8(out, cp);
        } else {
          // Unknown escapes (and \N{NAME}, which needs the Unicode name table) stay as written, as Python
          // keeps unknown ones.
          out += '\\';
          out += e;
        }
        break;
    }
  }
  return out;
}

/// Names of element types that torch / numpy expose as module attributes (`torch.bfloat16`): written in lower
/// case, yet they are the enum-like constants a dtype setting takes.
bool is_dtype_name(std::string_view s) {
  static constexpr std::array<std::string_view, 27> kNames = {
      "float16",     "float32",         "float64",         "bfloat16", "half",   "float", "double",
      "int8",        "int16",           "int32",           "int64",    "uint8",  "bool",  "complex64",
      "complex128",  "cfloat",          "cdouble",         "long",     "int",    "short", "float8_e4m3fn",
      "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "uint16",   "uint32", "uint64"};
  return std::find(kNames.begin(), kNames.end(), s) != kNames.end();
}

/// `SHARD_GRAD_OP`, `FULL_SHARD`, `FSDP`: an enum member by Python convention (a letter, no lower case).
bool is_constant_case(std::string_view s) {
  bool letter = false;
  for (char c : s) {
    if (c >= 'a' && c <= 'z') return false;
    if (c >= 'A' && c <= 'Z') letter = true;
  }
  return letter;
}

std::string_view last_component(std::string_view dotted) {
  const std::size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

/// The names of a dotted chain (`a.b.c`), in place for up to eight (nearly every chain), in a vector beyond: a
/// chain is read for every call and most arguments, and a vector allocated for each cost more than reading it.
class DottedParts {
 public:
  void push_back(std::string_view s) {
    if (size_ < kInline) {
      inline_[size_] = s;
    } else {
      if (size_ == kInline) more_.assign(inline_.begin(), inline_.end());
      more_.push_back(s);
    }
    ++size_;
  }
  [[nodiscard]] std::size_t size() const { return size_; }
  [[nodiscard]] std::string_view* begin() { return size_ <= kInline ? inline_.data() : more_.data(); }
  [[nodiscard]] std::string_view* end() { return begin() + size_; }
  [[nodiscard]] const std::string_view* begin() const { return size_ <= kInline ? inline_.data() : more_.data(); }
  [[nodiscard]] const std::string_view* end() const { return begin() + size_; }
  [[nodiscard]] std::string_view front() const { return *begin(); }
  [[nodiscard]] std::string_view back() const { return *(end() - 1); }
  /// The first `count` names.
  [[nodiscard]] std::span<const std::string_view> first(std::size_t count) const { return {begin(), count}; }
  [[nodiscard]] std::span<const std::string_view> all() const { return {begin(), size_}; }

 private:
  static constexpr std::size_t kInline = 8;
  std::array<std::string_view, kInline> inline_{};
  std::vector<std::string_view> more_;
  std::size_t size_ = 0;
};

std::string join(std::span<const std::string_view> parts, std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count && i < parts.size(); ++i) {
    if (i != 0) out += '.';
    out += parts[i];
  }
  return out;
}

/// One name in one scope: how often it is bound there, and the expression when that binding is a plain
/// `name = expr`. Resolution needs count == 1 and an expression; imports are tracked apart so that a
/// `try: import X / except: X = None` fallback still lets `X(...)` resolve to the import.
struct Binding {
  int scope = 0;  ///< the scope that holds it: names in `value` are looked up from there
  std::uint32_t count = 0;
  bool has_value = false;
  TSNode value{};
  std::uint64_t cached_size = 0;  ///< value_size(cached)
  /// Where `value` is, for a module-level binding read in pieces (its tree is gone once its piece is done): the
  /// piece, the node's bytes and symbol.
  std::uint32_t value_piece = 0;
  std::uint32_t value_begin = 0;
  std::uint32_t value_end = 0;
  TSSymbol value_symbol = 0;
  std::string import_target;     ///< qualified name, when some binding in this scope is an import
  bool import_conflict = false;  ///< two imports of different things under one name
  enum class State : std::uint8_t { Unresolved, InProgress, Done } state = State::Unresolved;
  Value cached;
};

struct Scope {
  int parent = -1;
  bool is_class = false;
  std::unordered_map<std::string_view, Binding> names;
};

/// A `key: value` of a dict literal, `key=value` of `dict(...)`, or a field of a resolved dict, with where the
/// entry and its key are written (for `**` unpacking into keyword arguments).
struct DictEntry {
  std::string key;
  Value value;
  source::Region entry_region;
  source::Region key_region;
};

/// A call or attribute assignment seen during the walk, resolved once all bindings of the file are known.
struct Pending {
  TSNode node;
  int scope;
  std::string_view function;
};

class Extractor {
 public:
  Extractor(const source::SourceFile& file, const parse::PythonTree& tree)
      : file_(file),
        tree_(&tree),
        g_(Grammar::get()),
        positions_(file),
        value_budget_(kValueBudgetBase + kValueBudgetPerByte * file.text().size()) {}

  Extractor(const source::SourceFile& file, const parse::PythonPieces& pieces)
      : file_(file),
        pieces_(&pieces),
        g_(Grammar::get()),
        positions_(file),
        value_budget_(kValueBudgetBase + kValueBudgetPerByte * file.text().size()) {}

  /// Keep only the calls and attribute assignments something reads (lint/model/python_calls_read.hpp). The
  /// arguments of a call that nothing reads, and the value of such an attribute assignment, are not resolved: what
  /// is kept is what resolving everything gives, unless resolving everything would have spent the file's value
  /// budget (then more of what is kept is known).
  void keep_only_read() { read_only_ = true; }

  PythonFacts run() {
    PythonFacts facts;
    facts.syntax_errors = tree_->errors();
    if (tree_->tree() == nullptr) return facts;
    scopes_.push_back(Scope{});  // module scope: 0
    walk(ts_tree_root_node(tree_->tree()));
    if (!read_only_) facts.calls.reserve(pending_calls_.size());
    add_pending(facts);
    if (read_only_) facts.calls.shrink_to_fit();
    facts.called_imports = called_imports();
    facts.classes = std::move(classes_);
    facts.imports = std::map<std::string, std::string>(std::make_move_iterator(imports_.begin()),
                                                       std::make_move_iterator(imports_.end()));
    return facts;
  }

  /// The facts read piece by piece, each piece's tree deleted before the next is parsed; the same as run() on the
  /// whole file's tree, or nothing (the caller then parses the whole file). A piece's calls and attribute
  /// assignments are resolved once its walk is done, with the module-level bindings seen so far; a module-level
  /// name read there and bound again in a later piece (or an import changed later) makes a second pass that
  /// resolves every piece with the module's final bindings, as run() does. A module-level value from another
  /// piece is resolved from its statement parsed alone. What depends on the order of resolution (the value
  /// budget running out, a cycle of names, the depth limit) gives nothing.
  std::optional<PythonFacts> run_pieces() {
    PythonFacts facts;
    scopes_.push_back(Scope{});  // module scope: 0
    if (!pieces_pass(facts)) return std::nullopt;
    if (stale_) {
      facts.calls.clear();
      facts.attribute_assignments.clear();
      callees_left_.clear();
      classes_.clear();
      for (auto& [name, b] : scopes_[0].names) {
        b.state = Binding::State::Unresolved;
        b.cached = Value{};
        b.cached_size = 0;
      }
      value_spent_ = 0;
      order_sensitive_ = false;
      frozen_ = true;
      if (!pieces_pass(facts)) return std::nullopt;
    }
    if (order_sensitive_ || value_spent_ > value_budget_) return std::nullopt;
    if (read_only_) facts.calls.shrink_to_fit();
    facts.called_imports = called_imports();
    facts.classes = std::move(classes_);
    facts.imports = std::map<std::string, std::string>(std::make_move_iterator(imports_.begin()),
                                                       std::make_move_iterator(imports_.end()));
    return facts;
  }

 private:
  /// The facts of the pending calls and attribute assignments, of those kept (keep_only_read). A call nothing
  /// reads is not built: only its callee is noted (callees_left_), for called_imports().
  void add_pending(PythonFacts& facts) {
    for (const Pending& p : pending_calls_) {
      if (read_only_) {
        std::string callee = callee_of(launchlint_child_by_field_id(p.node, g_.f_function), p.scope, false).qualified;
        if (!python_call_read_by_name(last_component(callee), callee) && !arguments_may_be_read(p, callee)) {
          callees_left_.insert(std::move(callee));
          continue;
        }
      }
      PyCall call = call_without_arguments(p);
      add_arguments(p, call);
      if (read_only_ && !python_call_read(call)) {
        callees_left_.insert(std::move(call.callee));
        continue;
      }
      facts.calls.push_back(std::move(call));
    }
    for (const Pending& p : pending_attributes_) {
      std::optional<PyAttributeAssignment> a = build_attribute_assignment(p);
      if (!a) continue;
      facts.attribute_assignments.push_back(std::move(*a));
    }
  }

  /// The qualified names of imports_ that a call left out calls (the name itself or something under it), sorted:
  /// each callee's dotted prefixes are looked up, so the cost is the callees' length, not callees times imports.
  [[nodiscard]] std::vector<std::string> called_imports() const {
    if (callees_left_.empty()) return {};
    std::unordered_set<std::string_view> qualified;
    for (const auto& [local, q] : imports_) qualified.insert(q);
    std::vector<std::string> out;
    for (const std::string& callee : callees_left_) {
      for (std::size_t end = callee.find('.');; end = callee.find('.', end + 1)) {
        const std::string_view prefix = std::string_view(callee).substr(0, end);
        if (qualified.count(prefix) != 0) out.emplace_back(prefix);
        if (end == std::string::npos) break;
      }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  // ---- pieces ----

  /// Parses, walks and resolves each piece in turn; false when a piece has no tree or a value was not found.
  bool pieces_pass(PythonFacts& facts) {
    for (std::size_t i = 0; i < pieces_->count(); ++i) {
      piece_ = static_cast<std::uint32_t>(i);
      const parse::PythonTree tree = pieces_->parse(i);
      if (tree.tree() == nullptr) return false;
      piece_root_ = ts_tree_root_node(tree.tree());
      walk(piece_root_);
      add_pending(facts);
      pending_calls_.clear();
      pending_attributes_.clear();
      scopes_.resize(1);  // a piece's functions, classes and comprehensions end in it
      piece_root_ = TSNode{};
      if (pieces_failed_) return false;
    }
    return true;
  }

  /// What resolving a module-level name reads: its value when it is bound once by a plain assignment, what it
  /// was imported as (through the module's binding, else the imports of any scope), and, for `dict` alone,
  /// whether the module binds it at all (is_builtin_dict).
  struct ModuleAnswer {
    bool exists = false;
    bool has_value = false;
    std::uint32_t value_begin = 0;
    std::string import;
    bool operator==(const ModuleAnswer&) const = default;
  };

  [[nodiscard]] ModuleAnswer module_answer(std::string_view name) const {
    ModuleAnswer a;
    const auto& names = scopes_[0].names;
    const auto it = names.find(name);
    if (it != names.end()) {
      const Binding& b = it->second;
      a.exists = name == "dict";
      a.has_value = b.count == 1 && b.has_value;
      a.value_begin = a.has_value ? b.value_begin : 0;
      if (!b.import_target.empty() && !b.import_conflict) a.import = b.import_target;
    } else if (const auto imp = imports_.find(name); imp != imports_.end()) {
      a.import = imp->second;
    }
    return a;
  }

  /// Before a module-level binding or an import changes in the first pass: the answer for a name some piece has
  /// already resolved. recheck() after the change: a different answer makes the first pass stale.
  [[nodiscard]] std::optional<ModuleAnswer> watch(std::string_view name) const {
    if (pieces_ == nullptr || frozen_ || observed_.count(name) == 0) return std::nullopt;
    return module_answer(name);
  }
  void recheck(std::string_view name, const std::optional<ModuleAnswer>& before) {
    if (before && module_answer(name) != *before) stale_ = true;
  }

  /// Whether a binding in `scope` is left as the first pass made it (module-level ones, in the second pass).
  [[nodiscard]] bool frozen(int scope) const { return frozen_ && scope == 0; }

  /// The value of a module-level binding read in pieces: its node in the current piece's tree, or in its
  /// statement parsed alone.
  Value module_value(const Binding& b, int depth) {
    std::optional<parse::PythonTree> statement;
    TSNode root = piece_root_;
    if (b.value_piece != piece_ || ts_node_is_null(piece_root_)) {
      statement = pieces_->parse_statement_at(b.value_begin);
      root = statement->tree() != nullptr ? ts_tree_root_node(statement->tree()) : TSNode{};
    }
    const TSNode n = ts_node_is_null(root) ? TSNode{} : find_node(root, b);
    if (ts_node_is_null(n)) {
      pieces_failed_ = true;
      return Value::unknown();
    }
    return resolve(n, 0, depth + 1);
  }

  /// The node of `b`'s value in `root`: the outermost of those with its bytes, of its symbol.
  static TSNode find_node(TSNode root, const Binding& b) {
    TSNode n = ts_node_named_descendant_for_byte_range(root, b.value_begin, b.value_end);
    while (!ts_node_is_null(n) && ts_node_start_byte(n) == b.value_begin && ts_node_end_byte(n) == b.value_end) {
      if (ts_node_symbol(n) == b.value_symbol) return n;
      n = ts_node_parent(n);
    }
    return TSNode{};
  }

  // ---- the walk: one pass over the visible nodes, scopes and bindings collected, calls queued ----

  struct Frame {
    TSSymbol symbol;
    int scope;                  ///< scope this node is evaluated in
    int created_scope;          ///< scope this node opens for its body (def, class, lambda, comprehension), or -1
    std::string_view function;  ///< innermost enclosing def's name
    std::string_view defines;   ///< a def's own name, handed to its body
  };

  Frame frame_for(TSNode node, TSSymbol symbol, const Frame* parent, TSFieldId field) {
    Frame f{symbol, 0, -1, {}, {}};
    if (parent != nullptr) {
      f.scope = parent->scope;
      f.function = parent->function;
      if (parent->created_scope >= 0) {
        const bool comprehension = parent->symbol == g_.list_comprehension || parent->symbol == g_.set_comprehension ||
                                   parent->symbol == g_.dictionary_comprehension ||
                                   parent->symbol == g_.generator_expression;
        if (comprehension || field == g_.f_body) f.scope = parent->created_scope;
        if (parent->symbol == g_.function_definition && field == g_.f_body) f.function = parent->defines;
      }
    }
    if (f.symbol == g_.function_definition || f.symbol == g_.class_definition || f.symbol == g_.lambda ||
        f.symbol == g_.list_comprehension || f.symbol == g_.set_comprehension ||
        f.symbol == g_.dictionary_comprehension || f.symbol == g_.generator_expression) {
      f.created_scope = static_cast<int>(scopes_.size());
      Scope s;
      s.parent = f.scope;
      s.is_class = f.symbol == g_.class_definition;
      scopes_.push_back(std::move(s));
      if (f.symbol == g_.function_definition) {
        f.defines = text(launchlint_child_by_field_id(node, g_.f_name));
      }
    }
    return f;
  }

  /// Subtrees that hold nothing visit() looks at, so the walk does not enter them (moving through the tree is most
  /// of the walk's cost): a string without replacement fields (no `f`/`t` prefix), a comment, and an import
  /// (on_import reads its children itself). (Also skipping short subtrees whose text has no `(`, `=` or keyword
  /// of interest was measured: the scan cost more than the walk it saved.)
  [[nodiscard]] bool opaque(TSNode n, TSSymbol s) const {
    if (s == g_.comment || s == g_.import_statement || s == g_.import_from_statement) return true;
    if (s != g_.string) return false;
    for (const char c : text(n)) {
      if (c == '"' || c == '\'') return true;  // the prefix ended without `f` or `t`
      const char lower = static_cast<char>(c | 0x20);
      if (lower == 'f' || lower == 't') return false;
    }
    return false;
  }

  /// One pass over the tree. The walk returns only the nodes visit() or frame_for() acts on, and strings (whose
  /// children opaque() may skip): the others change nothing (a node's scope and function are its parent's unless
  /// the parent opens a scope), so a returned node's frame derives from the nearest returned ancestor's, and the
  /// field that decides whether it lies in that ancestor's body is the one of the ancestor's child on its path.
  void walk(TSNode root) {
    Walk w(root);
    w.keep(g_.walked.get(), g_.symbol_count);
    w.skip_small(g_.min_descendants.get(), g_.symbol_count);
    struct Kept {
      std::uint32_t depth;
      Frame frame;
    };
    std::vector<Kept> path;
    LaunchlintTreeStep step{};
    bool descend = true;
    while (w.next(descend, step)) {
      while (!path.empty() && path.back().depth >= step.depth) path.pop_back();
      const Frame* parent = path.empty() ? nullptr : &path.back().frame;
      const TSFieldId field =
          parent != nullptr && parent->created_scope >= 0 ? w.ancestor_field(path.back().depth + 1) : 0;
      path.push_back(Kept{step.depth, frame_for(step.node, step.symbol, parent, field)});
      if (step.named) visit(step.node, path.back().frame);
      descend = step.has_children && !opaque(step.node, step.symbol);
    }
  }

  void visit(TSNode node, const Frame& f) {
    const TSSymbol s = f.symbol;
    if (s == g_.call) {
      pending_calls_.push_back(Pending{node, f.scope, f.function});
    } else if (s == g_.assignment) {
      on_assignment(node, f);
    } else if (s == g_.augmented_assignment) {
      bind_targets(launchlint_child_by_field_id(node, g_.f_left), f.scope);
    } else if (s == g_.for_statement || s == g_.for_in_clause) {
      bind_targets(launchlint_child_by_field_id(node, g_.f_left), f.scope);
    } else if (s == g_.as_pattern_target) {
      bind_targets(kids_.first_named(node), f.scope);
    } else if (s == g_.named_expression) {
      bind_targets(launchlint_child_by_field_id(node, g_.f_name), f.scope);
    } else if (s == g_.global_statement || s == g_.nonlocal_statement || s == g_.delete_statement) {
      // These make a name's value depend on other code: poison it (count it as bound twice).
      for (const TSNode n : kids_.named(node)) {
        std::vector<std::string_view> names;
        collect_target_names(n, names);
        for (std::string_view name : names) {
          poison(f.scope, name);
          if (s == g_.global_statement) poison(0, name);
        }
      }
    } else if (s == g_.function_definition || s == g_.class_definition) {
      bind_opaque(f.scope, text(launchlint_child_by_field_id(node, g_.f_name)));
      if (s == g_.function_definition) bind_parameters(launchlint_child_by_field_id(node, g_.f_parameters), f);
      if (s == g_.class_definition) on_class(node, f.scope);
    } else if (s == g_.lambda) {
      bind_parameters(launchlint_child_by_field_id(node, g_.f_parameters), f);
    } else if (s == g_.import_statement || s == g_.import_from_statement) {
      on_import(node, f.scope);
    }
  }

  /// A dotted name (`a.b`, a call's function for `@dataclass(...)`) qualified through imports, or "" when it is not
  /// one.
  std::string dotted_name_of(TSNode n, int scope) {
    if (is(n, g_.call)) n = launchlint_child_by_field_id(n, g_.f_function);
    const auto parts = dotted_parts(n);
    return parts ? qualify(parts->all(), scope) : std::string();
  }

  void on_class(TSNode node, int scope) {
    static const TSFieldId f_superclasses = ts_language_field_id_for_name(tree_sitter_python(), "superclasses", 12);
    static const TSFieldId f_type = ts_language_field_id_for_name(tree_sitter_python(), "type", 4);
    const TSNode name = launchlint_child_by_field_id(node, g_.f_name);
    if (ts_node_is_null(name)) return;
    PyClass c;
    c.name = std::string(text(name));
    c.region = positions_.region(name);
    if (const TSNode supers = launchlint_child_by_field_id(node, f_superclasses); !ts_node_is_null(supers)) {
      for (std::uint32_t i = 0; i < ts_node_named_child_count(supers); ++i) {
        const TSNode b = ts_node_named_child(supers, i);
        if (is(b, g_.keyword_argument)) continue;  // metaclass=...
        c.bases.push_back(dotted_name_of(b, scope));
      }
    }
    if (const TSNode parent = ts_node_parent(node);
        !ts_node_is_null(parent) && std::string_view(ts_node_type(parent)) == "decorated_definition") {
      for (std::uint32_t i = 0; i < ts_node_named_child_count(parent); ++i) {
        const TSNode d = ts_node_named_child(parent, i);
        if (std::string_view(ts_node_type(d)) != "decorator" || ts_node_named_child_count(d) == 0) continue;
        c.decorators.push_back(dotted_name_of(ts_node_named_child(d, 0), scope));
      }
    }
    if (const TSNode body = launchlint_child_by_field_id(node, g_.f_body); !ts_node_is_null(body)) {
      for (std::uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
        const TSNode st = ts_node_named_child(body, i);
        if (std::string_view(ts_node_type(st)) != "expression_statement" || ts_node_named_child_count(st) == 0)
          continue;
        const TSNode a = ts_node_named_child(st, 0);
        if (!is(a, g_.assignment) || ts_node_is_null(launchlint_child_by_field_id(a, f_type))) continue;
        const TSNode left = launchlint_child_by_field_id(a, g_.f_left);
        if (!is(left, g_.identifier)) continue;
        c.fields.emplace_back(text(left));
        c.field_truths.push_back(default_truth(launchlint_child_by_field_id(a, g_.f_right)));
      }
    }
    classes_.push_back(std::move(c));
  }

  /// A field's default as a written truth value: `True` / `False`, or `field(default=True)` /
  /// `dataclasses.field(default=False, ...)` as written (1 / 0); -1 for anything else or no default.
  std::int8_t default_truth(TSNode right) const {
    const auto truth = [this](TSNode v) -> std::int8_t {
      if (is(v, g_.true_)) return 1;
      if (is(v, g_.false_)) return 0;
      return -1;
    };
    if (ts_node_is_null(right)) return -1;
    if (!is(right, g_.call)) return truth(right);
    const std::string_view callee = text(launchlint_child_by_field_id(right, g_.f_function));
    if (callee != "field" && callee != "dataclasses.field") return -1;
    const TSNode args = launchlint_child_by_field_id(right, g_.f_arguments);
    if (ts_node_is_null(args)) return -1;
    for (std::uint32_t i = 0; i < ts_node_named_child_count(args); ++i) {
      const TSNode k = ts_node_named_child(args, i);
      if (!is(k, g_.keyword_argument) || text(launchlint_child_by_field_id(k, g_.f_name)) != "default") continue;
      return truth(launchlint_child_by_field_id(k, g_.f_value));
    }
    return -1;
  }

  void on_assignment(TSNode node, const Frame& f) {
    const TSNode left = launchlint_child_by_field_id(node, g_.f_left);
    const TSNode right = launchlint_child_by_field_id(node, g_.f_right);
    if (ts_node_is_null(left) || ts_node_is_null(right)) return;  // `x: int` declares, it does not bind
    if (is(left, g_.identifier)) {
      if (frozen(f.scope)) return;
      const auto before = f.scope == 0 ? watch(text(left)) : std::nullopt;
      Binding& b = binding(f.scope, text(left));
      if (++b.count == 1) {
        b.has_value = true;
        b.value = right;
        b.value_piece = piece_;
        b.value_begin = ts_node_start_byte(right);
        b.value_end = ts_node_end_byte(right);
        b.value_symbol = ts_node_symbol(right);
      }
      recheck(text(left), before);
    } else if (is(left, g_.attribute)) {
      pending_attributes_.push_back(Pending{node, f.scope, f.function});
    } else {
      bind_targets(left, f.scope);
    }
  }

  /// Names bound by a target (`a`, `a, (b, *c)`, `[x, y]`); attributes and subscripts bind no name.
  void collect_target_names(TSNode target, std::vector<std::string_view>& out) {
    std::vector<TSNode> stack{target};
    while (!stack.empty()) {
      const TSNode n = stack.back();
      stack.pop_back();
      if (ts_node_is_null(n)) continue;
      const TSSymbol s = ts_node_symbol(n);
      if (s == g_.identifier) {
        out.push_back(text(n));
      } else if (s == g_.pattern_list || s == g_.tuple_pattern || s == g_.list_pattern || s == g_.tuple ||
                 s == g_.list || s == g_.parenthesized_expression || s == g_.list_splat_pattern || s == g_.list_splat ||
                 s == g_.expression_list || s == g_.dictionary_splat_pattern) {
        for (const TSNode c : kids_.named(n)) stack.push_back(c);
      }
    }
  }

  void bind_targets(TSNode target, int scope) {
    std::vector<std::string_view> names;
    collect_target_names(target, names);
    for (std::string_view name : names) bind_opaque(scope, name);
  }

  void bind_parameters(TSNode params, const Frame& f) {
    if (ts_node_is_null(params) || f.created_scope < 0) return;
    for (const TSNode p : kids_.named(params)) {
      const TSSymbol s = ts_node_symbol(p);
      TSNode target = p;
      if (s == g_.default_parameter || s == g_.typed_default_parameter) {
        target = launchlint_child_by_field_id(p, g_.f_name);
      } else if (s == g_.typed_parameter) {
        target = kids_.first_named(p);
      }
      bind_targets(target, f.created_scope);
    }
  }

  /// The binding of `name` in `scope`, created on first use. Keys view the source text, which outlives them.
  Binding& binding(int scope, std::string_view name) {
    Binding& b = scopes_[static_cast<std::size_t>(scope)].names[name];
    b.scope = scope;
    return b;
  }

  void bind_opaque(int scope, std::string_view name) {
    if (name.empty() || frozen(scope)) return;
    const auto before = scope == 0 ? watch(name) : std::nullopt;
    ++binding(scope, name).count;
    recheck(name, before);
  }

  void poison(int scope, std::string_view name) {
    if (name.empty() || frozen(scope)) return;
    const auto before = scope == 0 ? watch(name) : std::nullopt;
    binding(scope, name).count += 2;
    recheck(name, before);
  }

  void bind_import(int scope, std::string_view local, std::string qualified) {
    if (local.empty() || qualified.empty() || frozen(scope)) return;
    Binding& b = binding(scope, local);
    // `import torch` and `import torch.distributed` both bind `torch` to the same module: not a reassignment.
    if (!b.import_target.empty() && b.import_target == qualified) return;
    const auto before = watch(local);  // the imports of any scope answer for a name the module does not bind
    ++b.count;
    if (!b.import_target.empty()) b.import_conflict = true;
    b.import_target = qualified;
    if (!frozen_) imports_[std::string(local)] = std::move(qualified);  // frozen: the first pass's imports
    recheck(local, before);
  }

  std::string dotted_text(TSNode dotted) {
    std::string out;
    for (const TSNode id : kids_.named(dotted)) {
      if (!is(id, g_.identifier)) continue;
      if (!out.empty()) out += '.';
      out += text(id);
    }
    return out;
  }

  void on_import(TSNode node, int scope) {
    std::string module;  // for `from M import ...`: M with its leading dots
    const bool from = ts_node_symbol(node) == g_.import_from_statement;
    if (from) {
      const TSNode m = launchlint_child_by_field_id(node, g_.f_module_name);
      if (is(m, g_.dotted_name)) {
        module = dotted_text(m);
      } else if (is(m, g_.relative_import)) {
        for (const TSNode part : kids_.named(m)) {
          if (is(part, g_.import_prefix)) {
            module += text(part);
          } else if (is(part, g_.dotted_name)) {
            module += dotted_text(part);
          }
        }
      } else {
        return;
      }
    }
    for (const Child& c : kids_.all(node)) {
      if (c.field != g_.f_name) continue;
      TSNode dotted = c.node;
      std::string_view alias;
      if (is(c.node, g_.aliased_import)) {
        dotted = launchlint_child_by_field_id(c.node, g_.f_name);
        alias = text(launchlint_child_by_field_id(c.node, g_.f_alias));
      }
      if (!is(dotted, g_.dotted_name)) continue;
      const std::vector<TSNode> ids = kids_.named(dotted);
      if (ids.empty() || !is(ids.front(), g_.identifier) || !is(ids.back(), g_.identifier)) continue;
      const std::string name = dotted_text(dotted);
      // Binding keys view the source text, so the local name is always taken from a node.
      if (from) {
        // `from a.b import C` binds C to a.b.C; `from . import x` binds x to .x.
        std::string qualified = module.empty() || module.back() == '.' ? module + name : module + "." + name;
        bind_import(scope, alias.empty() ? text(ids.back()) : alias, std::move(qualified));
      } else if (!alias.empty()) {
        bind_import(scope, alias, name);
      } else {
        // `import a.b` binds only `a`, to the package a.
        bind_import(scope, text(ids.front()), std::string(text(ids.front())));
      }
    }
  }

  // ---- names ----

  std::string_view text(TSNode n) const {
    if (ts_node_is_null(n)) return {};
    const std::string& t = file_.text();
    const std::size_t b = std::min<std::size_t>(ts_node_start_byte(n), t.size());
    const std::size_t e = std::clamp<std::size_t>(ts_node_end_byte(n), b, t.size());
    return std::string_view(t).substr(b, e - b);
  }

  /// The binding `name` refers to from `scope`: the scope itself, then enclosing function scopes and the module
  /// (class bodies are not visible from the functions inside them, as in Python).
  Binding* lookup(std::string_view name, int scope) {
    bool first = true;
    for (int s = scope; s >= 0; s = scopes_[static_cast<std::size_t>(s)].parent) {
      Scope& sc = scopes_[static_cast<std::size_t>(s)];
      if (!first && sc.is_class) continue;
      first = false;
      if (s == 0 && pieces_ != nullptr && !frozen_) observed_.insert(name);
      auto it = sc.names.find(name);
      if (it != sc.names.end()) return &it->second;
    }
    return nullptr;
  }

  /// What an imported name stands for, if `name` refers to an import from `scope`.
  const std::string* import_of(std::string_view name, int scope) { return import_of(lookup(name, scope), name); }
  /// The same, with the binding lookup(name, scope) found. Points into the bindings or imports_: read it before
  /// anything is bound.
  const std::string* import_of(const Binding* b, std::string_view name) {
    if (b != nullptr) {
      if (!b->import_target.empty() && !b->import_conflict) return &b->import_target;
      return nullptr;
    }
    // An import made in another function is not visible here in Python, but a script that relies on it is
    // still far more likely to mean that import than anything else.
    auto it = imports_.find(name);
    if (it != imports_.end()) return &it->second;
    return nullptr;
  }

  /// The identifiers of a pure dotted chain (`a.b.c`), or nothing when some link is not a name.
  std::optional<DottedParts> dotted_parts(TSNode n) {
    DottedParts parts;
    while (is(n, g_.attribute)) {
      const TSNode attr = launchlint_child_by_field_id(n, g_.f_attribute);
      if (!is(attr, g_.identifier)) return std::nullopt;
      parts.push_back(text(attr));
      n = launchlint_child_by_field_id(n, g_.f_object);
    }
    if (!is(n, g_.identifier)) return std::nullopt;
    parts.push_back(text(n));
    std::reverse(parts.begin(), parts.end());
    return parts;
  }

  /// A dotted chain with its first name replaced by what it was imported as.
  std::string qualify(std::span<const std::string_view> parts, int scope, bool* imported = nullptr) {
    std::string out;
    const std::string* target = import_of(parts.front(), scope);
    if (imported != nullptr) *imported = target != nullptr;
    out = target != nullptr ? *target : std::string(parts.front());
    for (std::size_t i = 1; i < parts.size(); ++i) {
      out += '.';
      out += parts[i];
    }
    return out;
  }

  /// The callee of a call: the resolved dotted name, else (a method of a computed object) the method name.
  struct Callee {
    std::string qualified;
    std::string receiver;
    bool dotted = false;  ///< a name or dotted chain, as opposed to a method of a computed object
  };
  /// The callee of a call; its receiver only when `with_receiver`.
  Callee callee_of(TSNode function, int scope, bool with_receiver = true) {
    Callee c;
    if (auto parts = dotted_parts(function)) {
      c.qualified = qualify(parts->all(), scope);
      c.dotted = true;
      if (with_receiver && parts->size() > 1) c.receiver = join(parts->all(), parts->size() - 1);
    } else if (is(function, g_.attribute)) {
      c.qualified = text(launchlint_child_by_field_id(function, g_.f_attribute));
    }
    return c;
  }

  bool is_builtin_dict(TSNode function, int scope) {
    if (!is(function, g_.identifier) || text(function) != "dict" || lookup("dict", scope) != nullptr) return false;
    return imports_.find("dict") == imports_.end();
  }

  // ---- values ----

  /// Charges `units` to the file's value budget; false once it is spent.
  bool charge(std::uint64_t units) {
    value_spent_ += units;
    return value_spent_ <= value_budget_;
  }

  Value resolve(TSNode n, int scope, int depth) {
    if (ts_node_is_null(n)) return Value::unknown();
    const source::Region where = positions_.region(n);
    if (depth > kMaxDepth) order_sensitive_ = true;
    if (depth > kMaxDepth || !charge(1)) return Value::unknown(where);
    const TSSymbol s = ts_node_symbol(n);
    if (s == g_.integer) return integer_value(text(n), false, where);
    if (s == g_.float_) return float_value(text(n), where);
    if (s == g_.string || s == g_.concatenated_string) return string_value(n, where);
    if (s == g_.true_) return Value::of_bool(true, where);
    if (s == g_.false_) return Value::of_bool(false, where);
    if (s == g_.none) return Value::none(where);
    if (s == g_.unary_operator) return unary_value(n, scope, depth, where);
    if (s == g_.parenthesized_expression) {
      const std::vector<TSNode> inner = kids_.named(n);
      if (inner.size() != 1) return Value::unknown(where);
      return resolve(inner.front(), scope, depth + 1);
    }
    if (s == g_.list || s == g_.tuple || s == g_.expression_list) return list_value(n, scope, depth, where);
    if (s == g_.dictionary) return dict_value(n, scope, depth, where);
    if (s == g_.identifier) return name_value(text(n), scope, depth, where);
    if (s == g_.attribute) return attribute_value(n, scope, where);
    if (s == g_.call) return call_value(n, scope, depth, where);
    if (s == g_.assignment) return resolve(launchlint_child_by_field_id(n, g_.f_right), scope, depth + 1);
    return Value::unknown(where);
  }

  static Value float_of(std::string text, double number, source::Region where) {
    Value v;
    v.kind = ValueKind::Float;
    v.text = std::move(text);
    v.number = number;
    v.region = where;
    return v;
  }

  /// An integer literal (`1_000`, `0x1F`, `0o7`, `0b1`). Beyond int64 it becomes a Float that keeps its text.
  /// `negative` folds a unary minus in, so that -9223372036854775808 is still an Int.
  Value integer_value(std::string_view written, bool negative, source::Region where) {
    std::string digits;
    for (char c : written) {
      if (c != '_') digits += c;
    }
    if (!digits.empty() && (digits.back() == 'l' || digits.back() == 'L')) digits.pop_back();          // Python 2 long
    if (digits.empty() || digits.back() == 'j' || digits.back() == 'J') return Value::unknown(where);  // complex
    unsigned base = 10;
    std::size_t start = 0;
    if (digits.size() > 2 && digits[0] == '0') {
      const char p = static_cast<char>(digits[1] | 0x20);
      if (p == 'x') base = 16;
      if (p == 'o') base = 8;
      if (p == 'b') base = 2;
      if (base != 10) start = 2;
    }
    std::uint64_t magnitude = 0;
    double approx = 0.0;
    bool overflow = false;
    for (std::size_t i = start; i < digits.size(); ++i) {
      const int d = hex_digit(digits[i]);
      if (d < 0 || static_cast<unsigned>(d) >= base) return Value::unknown(where);
      approx = approx * base + d;
      if (magnitude > (std::numeric_limits<std::uint64_t>::max() - static_cast<unsigned>(d)) / base) overflow = true;
      magnitude = magnitude * base + static_cast<unsigned>(d);
    }
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    if (!overflow && magnitude <= kMax) {
      const auto v = static_cast<std::int64_t>(magnitude);
      return Value::of_int(negative ? -v : v, where);
    }
    if (!overflow && negative && magnitude == kMax + 1) {
      return Value::of_int(std::numeric_limits<std::int64_t>::min(), where);
    }
    return float_of((negative ? "-" : "") + std::string(written), negative ? -approx : approx, where);
  }

  static Value float_value(std::string_view written, source::Region where) {
    std::string digits;
    for (char c : written) {
      if (c != '_') digits += c;
    }
    if (digits.empty() || digits.back() == 'j' || digits.back() == 'J') return Value::unknown(where);
    double number = 0.0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
    if (ec == std::errc::result_out_of_range) {
      number = std::numeric_limits<double>::infinity();  // `1e999` is inf in Python
    } else if (ec != std::errc() || end != digits.data() + digits.size()) {
      return Value::unknown(where);
    }
    return float_of(std::string(written), number, where);
  }

  Value unary_value(TSNode n, int scope, int depth, source::Region where) {
    const std::string_view op = text(launchlint_child_by_field_id(n, g_.f_operator));
    const TSNode arg = launchlint_child_by_field_id(n, g_.f_argument);
    if (op != "-" && op != "+") return Value::unknown(where);
    if (op == "-" && is(arg, g_.integer)) return integer_value(text(arg), true, where);
    Value v = resolve(arg, scope, depth + 1);
    v.region = where;
    if (v.kind != ValueKind::Int && v.kind != ValueKind::Float) return Value::unknown(where);
    if (op == "+") return v;
    if (v.kind == ValueKind::Int) {
      if (v.integer == std::numeric_limits<std::int64_t>::min()) {
        return float_of("9223372036854775808", -static_cast<double>(v.integer), where);
      }
      return Value::of_int(-v.integer, where);
    }
    v.number = -v.number;
    if (!v.text.empty() && v.text.front() == '-') {
      v.text.erase(0, 1);
    } else {
      v.text.insert(0, "-");
    }
    return v;
  }

  /// A str literal or implicit concatenation of them. f-strings, bytes and anything unterminated are Unknown.
  Value string_value(TSNode n, source::Region where) {
    std::vector<TSNode> parts;
    if (is(n, g_.concatenated_string)) {
      parts = kids_.named(n);
    } else {
      parts.push_back(n);
    }
    std::string out;
    for (const TSNode part : parts) {
      if (!is(part, g_.string)) return Value::unknown(where);
      TSNode start{};
      TSNode end{};
      bool interpolated = false;
      kids_.each(part, [&](const LaunchlintTreeStep& c) {
        if (c.symbol == g_.string_start) start = c.node;
        if (c.symbol == g_.string_end) end = c.node;
        interpolated = c.symbol == g_.interpolation;
        return !interpolated;
      });
      if (interpolated) return Value::unknown(where);
      if (ts_node_is_null(start) || ts_node_is_null(end) || ts_node_is_missing(end)) return Value::unknown(where);
      bool raw = false;
      for (char c : text(start)) {
        const char lower = static_cast<char>(c | 0x20);
        if (lower == 'f' || lower == 'b' || lower == 't') return Value::unknown(where);  // not a plain str
        if (lower == 'r') raw = true;
      }
      const std::size_t b = ts_node_end_byte(start);
      const std::size_t e = ts_node_start_byte(end);
      if (e < b || e > file_.text().size()) return Value::unknown(where);
      out += decode_string_body(std::string_view(file_.text()).substr(b, e - b), raw);
    }
    return Value::of_string(std::move(out), where);
  }

  Value list_value(TSNode n, int scope, int depth, source::Region where) {
    Value v;
    v.kind = ValueKind::List;
    v.region = where;
    for (const TSNode item : kids_.named(n)) {
      if (is(item, g_.list_splat)) {
        Value inner = resolve(kids_.first_named(item), scope, depth + 1);
        if (inner.kind != ValueKind::List) return Value::unknown(where);
        for (Value& x : inner.items) v.items.push_back(std::move(x));
      } else if (is(item, g_.error)) {
        return Value::unknown(where);
      } else {
        v.items.push_back(resolve(item, scope, depth + 1));
      }
    }
    return v;
  }

  Value dict_value(TSNode n, int scope, int depth, source::Region where) {
    auto entries = dict_entries(n, scope, depth);
    if (!entries) return Value::unknown(where);
    Value v;
    v.kind = ValueKind::Dict;
    v.region = where;
    v.fields.reserve(entries->size());
    for (DictEntry& e : *entries) v.fields.emplace_back(std::move(e.key), std::move(e.value));
    return v;
  }

  /// The entries of a dict literal, a `dict(...)` call, or a name bound to one of those; nothing when any key
  /// is not a string or any part is not static.
  std::optional<std::vector<DictEntry>> dict_entries(TSNode n, int scope, int depth) {
    if (depth > kMaxDepth) order_sensitive_ = true;
    if (depth > kMaxDepth || ts_node_is_null(n)) return std::nullopt;
    while (is(n, g_.parenthesized_expression)) {
      const std::vector<TSNode> inner = kids_.named(n);
      if (inner.size() != 1) return std::nullopt;
      n = inner.front();
    }
    std::vector<DictEntry> out;
    if (is(n, g_.dictionary)) {
      for (const TSNode item : kids_.named(n)) {
        if (is(item, g_.pair)) {
          const TSNode key = launchlint_child_by_field_id(item, g_.f_key);
          Value k = resolve(key, scope, depth + 1);
          if (k.kind != ValueKind::String) return std::nullopt;
          out.push_back(DictEntry{std::move(k.text),
                                  resolve(launchlint_child_by_field_id(item, g_.f_value), scope, depth + 1),
                                  positions_.region(item), positions_.region(key)});
        } else if (is(item, g_.dictionary_splat)) {
          auto inner = dict_entries(kids_.first_named(item), scope, depth + 1);
          if (!inner) return std::nullopt;
          for (DictEntry& e : *inner) out.push_back(std::move(e));
        } else {
          return std::nullopt;  // a comprehension body, an ERROR
        }
      }
      return out;
    }
    if (is(n, g_.call) && is_builtin_dict(launchlint_child_by_field_id(n, g_.f_function), scope)) {
      const TSNode args = launchlint_child_by_field_id(n, g_.f_arguments);
      if (!is(args, g_.argument_list)) return std::nullopt;
      bool had_positional = false;
      for (const TSNode a : kids_.named(args)) {
        if (is(a, g_.keyword_argument)) {
          const TSNode name = launchlint_child_by_field_id(a, g_.f_name);
          out.push_back(DictEntry{std::string(text(name)),
                                  resolve(launchlint_child_by_field_id(a, g_.f_value), scope, depth + 1),
                                  positions_.region(a), positions_.region(name)});
        } else if (is(a, g_.dictionary_splat) || (!had_positional && !is(a, g_.list_splat) && !is(a, g_.error))) {
          // `dict(mapping, k=v)`: the mapping's entries come first, as in Python.
          if (!is(a, g_.dictionary_splat)) had_positional = true;
          const TSNode source = is(a, g_.dictionary_splat) ? kids_.first_named(a) : a;
          auto inner = dict_entries(source, scope, depth + 1);
          if (!inner) return std::nullopt;
          for (DictEntry& e : *inner) out.push_back(std::move(e));
        } else {
          return std::nullopt;
        }
      }
      return out;
    }
    Value v = resolve(n, scope, depth + 1);
    if (v.kind != ValueKind::Dict) return std::nullopt;
    for (auto& [k, field] : v.fields) {
      const source::Region r = field.region;
      out.push_back(DictEntry{k, std::move(field), r, r});
    }
    return out;
  }

  /// A bare name: its single plain assignment in the visible scope, or the import it names.
  Value name_value(std::string_view name, int scope, int depth, source::Region where) {
    Binding* b = lookup(name, scope);
    if (b != nullptr && b->count == 1 && b->has_value) {
      if (b->state == Binding::State::Done) {
        if (!charge(b->cached_size)) return Value::unknown(where);
        return b->cached;
      }
      if (b->state == Binding::State::InProgress) {  // `a = b; b = a`
        order_sensitive_ = true;
        return Value::unknown(where);
      }
      b->state = Binding::State::InProgress;
      // The binding's own scope decides what names in its expression mean.
      Value v = pieces_ != nullptr && b->scope == 0 ? module_value(*b, depth) : resolve(b->value, b->scope, depth + 1);
      b->cached_size = value_size(v);
      if (!charge(b->cached_size)) v = Value::unknown(where);
      b->cached = v;
      b->state = Binding::State::Done;
      return v;
    }
    if (const std::string* target = import_of(b, name)) {  // b: lookup(name, scope), as import_of(name, scope) finds
      Value v;
      v.kind = ValueKind::Object;
      v.text = *target;
      v.region = where;
      return v;
    }
    return Value::unknown(where);
  }

  /// `ShardingStrategy.SHARD_GRAD_OP`, `torch.bfloat16`: an enum-like member, qualified by the short class name
  /// it belongs to. Other attributes of imported modules are Objects; attributes of local objects are Unknown.
  Value attribute_value(TSNode n, int scope, source::Region where) {
    auto parts = dotted_parts(n);
    if (!parts || parts->size() < 2) return Value::unknown(where);
    const std::string_view member = parts->back();
    // Most attributes (`self.x`, `config.hidden_size`) are none of the three below: decided without building the
    // qualified owner.
    if (!is_constant_case(member) && !is_dtype_name(member) && import_of(parts->front(), scope) == nullptr) {
      return Value::unknown(where);
    }
    bool imported = false;
    const std::string qualified_owner = qualify(parts->first(parts->size() - 1), scope, &imported);
    const std::string_view owner_name = last_component(qualified_owner);
    const bool class_like = !owner_name.empty() && owner_name.front() >= 'A' && owner_name.front() <= 'Z';
    if (is_constant_case(member) && (class_like || imported)) {
      return Value::of_enum(std::string(owner_name), std::string(member), where);
    }
    if (is_dtype_name(member) && (owner_name == "torch" || owner_name == "numpy")) {
      return Value::of_enum(std::string(owner_name), std::string(member), where);
    }
    if (imported) {
      Value v;
      v.kind = ValueKind::Object;
      v.text = qualified_owner + "." + std::string(member);
      v.region = where;
      return v;
    }
    return Value::unknown(where);
  }

  Value call_value(TSNode n, int scope, int depth, source::Region where) {
    const TSNode function = launchlint_child_by_field_id(n, g_.f_function);
    if (is_builtin_dict(function, scope)) {
      auto entries = dict_entries(n, scope, depth);
      if (!entries) return Value::unknown(where);
      Value v;
      v.kind = ValueKind::Dict;
      v.region = where;
      for (DictEntry& e : *entries) v.fields.emplace_back(std::move(e.key), std::move(e.value));
      return v;
    }
    Callee c = callee_of(function, scope);
    // `a().b()` names no callable anyone could look up: not an Object.
    if (!c.dotted) return Value::unknown(where);
    Value v;
    v.kind = ValueKind::Object;
    v.text = std::move(c.qualified);
    v.region = where;
    return v;
  }

  // ---- facts ----

  /// A call's record but its arguments (add_arguments).
  PyCall call_without_arguments(const Pending& p) {
    PyCall call;
    const TSNode function = launchlint_child_by_field_id(p.node, g_.f_function);
    Callee c = callee_of(function, p.scope);
    call.callee = std::move(c.qualified);
    call.name = std::string(last_component(call.callee));
    call.receiver = std::move(c.receiver);
    call.region = positions_.region(p.node);
    call.callee_region = positions_.region(function);
    call.function = std::string(p.function);
    call.order = ts_node_start_byte(p.node);
    return call;
  }

  /// Whether resolving a call's arguments could make python_call_read accept it (a `peft_config=` keyword, written
  /// or unpacked from `**`; the `type=` of a lazy-config `dict(...)`, lazy_config_type) or change what is kept of it
  /// (`*` / `**` unpacking: has_unresolved_unpacking).
  bool arguments_may_be_read(const Pending& p, std::string_view callee) {
    const TSNode args = launchlint_child_by_field_id(p.node, g_.f_arguments);
    if (!is(args, g_.argument_list)) return false;
    const bool lazy = callee == "dict";
    bool may = false;
    kids_.each(args, [&](const LaunchlintTreeStep& a) {
      may = a.symbol == g_.dictionary_splat || a.symbol == g_.list_splat ||
            (a.symbol == g_.keyword_argument &&
             (text(a.node).starts_with(kReadKeyword) || (lazy && text(a.node).starts_with("type"))));
      return !may;
    });
    return may;
  }

  /// The arguments of a call, resolved.
  void add_arguments(const Pending& p, PyCall& call) {
    const TSNode args = launchlint_child_by_field_id(p.node, g_.f_arguments);
    std::size_t position = 0;
    auto add_positional = [&](Value v, source::Region region, source::Region name_region) {
      PyArg a;
      a.position = position++;
      a.value = std::move(v);
      a.region = region;
      a.name_region = name_region;
      call.args.push_back(std::move(a));
    };
    if (is(args, g_.generator_expression)) {
      // `f(x for x in xs)`: one positional argument, never static.
      const source::Region r = positions_.region(args);
      add_positional(Value::unknown(r), r, r);
      return;
    }
    if (!is(args, g_.argument_list)) return;
    std::vector<TSNode>& written = call_args_;  // never re-entered: one vector for every call
    kids_.named(args, written);
    call.args.reserve(written.size());  // exact unless `*`/`**` unpacking adds some: no slack in most calls
    for (const TSNode a : written) {
      const TSSymbol s = ts_node_symbol(a);
      if (s == g_.error) continue;
      if (s == g_.keyword_argument) {
        const TSNode name = launchlint_child_by_field_id(a, g_.f_name);
        PyArg arg;
        arg.name = std::string(text(name));
        arg.value = resolve(launchlint_child_by_field_id(a, g_.f_value), p.scope, 0);
        arg.region = positions_.region(a);
        arg.name_region = positions_.region(name);
        call.args.push_back(std::move(arg));
      } else if (s == g_.dictionary_splat) {
        auto entries = dict_entries(kids_.first_named(a), p.scope, 0);
        if (!entries) {
          call.has_unresolved_unpacking = true;
          continue;
        }
        for (DictEntry& e : *entries) {
          PyArg arg;
          arg.name = std::move(e.key);
          arg.value = std::move(e.value);
          arg.region = e.entry_region;
          arg.name_region = e.key_region;
          arg.from_unpacked_dict = true;
          call.args.push_back(std::move(arg));
        }
      } else if (s == g_.list_splat) {
        Value inner = resolve(kids_.first_named(a), p.scope, 0);
        if (inner.kind != ValueKind::List) {
          call.has_unresolved_unpacking = true;
          continue;
        }
        const source::Region r = positions_.region(a);
        for (Value& item : inner.items) {
          const source::Region ir = item.region;
          add_positional(std::move(item), r, ir);
        }
      } else {
        const source::Region r = positions_.region(a);
        add_positional(resolve(a, p.scope, 0), r, r);
      }
    }
  }

  std::optional<PyAttributeAssignment> build_attribute_assignment(const Pending& p) {
    const TSNode left = launchlint_child_by_field_id(p.node, g_.f_left);
    auto parts = dotted_parts(left);
    if (!parts) return std::nullopt;  // `a[0].b = ...`, `f().x = ...`: no dotted target to name
    PyAttributeAssignment a;
    a.target = join(parts->all(), parts->size());
    a.attribute = std::string(parts->back());
    if (read_only_ && !python_attribute_assignment_read(a)) return std::nullopt;  // kept only if read: not resolved
    a.value = resolve(launchlint_child_by_field_id(p.node, g_.f_right), p.scope, 0);
    a.region = positions_.region(p.node);
    a.function = std::string(p.function);
    return a;
  }

  const source::SourceFile& file_;
  const parse::PythonTree* tree_ = nullptr;
  const parse::PythonPieces* pieces_ = nullptr;  ///< reading in pieces (run_pieces)
  std::uint32_t piece_ = 0;                      ///< the piece being read
  TSNode piece_root_{};                          ///< its tree's root while its facts are resolved
  bool frozen_ = false;                          ///< second pass: module-level bindings as the first pass left them
  bool pieces_failed_ = false;                   ///< a module-level value was not found again
  bool order_sensitive_ = false;                 ///< a result that could depend on the order of resolution
  /// Module-level names some piece has resolved (first pass); stale_: one of them resolves differently since.
  std::unordered_set<std::string_view> observed_;
  bool stale_ = false;
  bool read_only_ = false;                        ///< keep_only_read()
  std::unordered_set<std::string> callees_left_;  ///< keep_only_read(): the callees of the calls left out
  const Grammar& g_;
  Positions positions_;
  ChildReader kids_;
  std::vector<Scope> scopes_;
  std::vector<Pending> pending_calls_;
  std::vector<TSNode> call_args_;  ///< add_arguments's argument nodes
  std::vector<Pending> pending_attributes_;
  std::vector<PyClass> classes_;
  std::map<std::string, std::string, std::less<>> imports_;  ///< looked up by string_view: no copy per query
  std::uint64_t value_budget_;
  std::uint64_t value_spent_ = 0;
};

}  // namespace

namespace detail {
PythonWalkTables python_walk_tables() {
  const Grammar& g = Grammar::get();
  return PythonWalkTables{g.walked.get(), g.acted_on.get(), g.min_descendants.get(), g.symbol_count};
}
}  // namespace detail

PythonFacts extract_python_facts(const source::SourceFile& file, const parse::PythonTree& tree) {
  return Extractor(file, tree).run();
}

namespace {

std::optional<PythonFacts> read_in_pieces(const source::SourceFile& file, std::size_t piece_bytes, bool only_read) {
  const std::optional<parse::PythonPieces> pieces = parse::PythonPieces::split(file, piece_bytes);
  if (!pieces) return std::nullopt;
  Extractor extractor(file, *pieces);
  if (only_read) extractor.keep_only_read();
  return extractor.run_pieces();
}

}  // namespace

std::optional<PythonFacts> read_python_facts_in_pieces(const source::SourceFile& file, std::size_t piece_bytes) {
  return read_in_pieces(file, piece_bytes, false);
}

PythonFacts read_python_facts(const source::SourceFile& file) {
  // A file keeps only the facts something reads: every call of model_zoo.py (bench/gen.py) with its arguments
  // took 8x the file (docs/limits.md "Huge files"), and those of a monorepo's model files most of its memory.
  const bool only_read = file.text().size() >= python_read_calls_only_from();
  if (file.text().size() >= kPythonPiecesFrom) {
    if (auto facts = read_in_pieces(file, kPythonPieceBytes, only_read)) return std::move(*facts);
  }
  const parse::PythonTree tree = parse::PythonTree::parse(file);
  Extractor extractor(file, tree);
  if (only_read) extractor.keep_only_read();
  return extractor.run();
}

}  // namespace lint::model
