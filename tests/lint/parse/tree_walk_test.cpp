#include "lint/parse/tree_walk.h"

#include <catch2/catch.hpp>
#include <tree_sitter/api.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "lint/model/python_walk_tables.hpp"
#include "lint/parse/tree_sitter_support.hpp"

namespace {

struct Seen {
  const void* id;
  std::uint32_t start;
  std::uint32_t end;
  TSPoint point;
  TSSymbol symbol;
  bool named;
  bool has_children;
  std::uint32_t depth;
  TSFieldId field;
  bool operator==(const Seen& o) const {
    return id == o.id && start == o.start && end == o.end && point.row == o.point.row &&
           point.column == o.point.column && symbol == o.symbol && named == o.named &&
           has_children == o.has_children && depth == o.depth && field == o.field;
  }
};

using Skip = std::function<bool(TSNode)>;

/// The reference: a TSTreeCursor moved with goto_first_child / goto_next_sibling / goto_parent.
std::vector<Seen> with_cursor(TSNode root, const Skip& skip) {
  std::vector<Seen> out;
  TSTreeCursor c = ts_tree_cursor_new(root);
  std::uint32_t depth = 0;
  for (;;) {
    const TSNode n = ts_tree_cursor_current_node(&c);
    out.push_back(Seen{n.id, ts_node_start_byte(n), ts_node_end_byte(n), ts_node_start_point(n), ts_node_symbol(n),
                       ts_node_is_named(n), ts_node_child_count(n) > 0, depth,
                       ts_tree_cursor_current_field_id(&c)});
    if (!skip(n) && ts_tree_cursor_goto_first_child(&c)) {
      ++depth;
      continue;
    }
    bool moved = false;
    while (!(moved = ts_tree_cursor_goto_next_sibling(&c))) {
      if (!ts_tree_cursor_goto_parent(&c)) break;
      --depth;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&c);
  return out;
}

std::vector<Seen> with_walk(TSNode root, const Skip& skip) {
  std::vector<Seen> out;
  LaunchlintTreeWalk* w = launchlint_tree_walk_new(root);
  REQUIRE(w != nullptr);
  LaunchlintTreeStep step{};
  bool descend = true;
  while (launchlint_tree_walk_next(w, descend, &step)) {
    const TSNode n = step.node;
    // has_children counts hidden children too; a node with visible children always has it.
    CHECK((step.has_children || ts_node_child_count(n) == 0));
    out.push_back(Seen{n.id, ts_node_start_byte(n), ts_node_end_byte(n), ts_node_start_point(n), step.symbol,
                       step.named, ts_node_child_count(n) > 0, step.depth, launchlint_tree_walk_field(w)});
    descend = !skip(n);
  }
  launchlint_tree_walk_delete(w);
  return out;
}

/// With a keep table: the walk returns the cursor's nodes of the kept kinds (and the root) at their depths, and
/// the field of each one's ancestors at every depth is the one the cursor gives standing on that ancestor.
void check_kept(TSNode root, const std::vector<bool>& keep_table) {
  struct Node {
    const void* id;
    std::uint32_t depth;
    std::vector<TSFieldId> fields;  // by depth, the node's own last
  };
  std::vector<Node> expected;
  {
    TSTreeCursor c = ts_tree_cursor_new(root);
    std::vector<TSFieldId> fields;
    for (;;) {
      const TSNode n = ts_tree_cursor_current_node(&c);
      fields.push_back(ts_tree_cursor_current_field_id(&c));
      const TSSymbol s = ts_node_symbol(n);
      if (expected.empty() || s >= keep_table.size() || keep_table[s]) {
        expected.push_back(Node{n.id, static_cast<std::uint32_t>(fields.size() - 1), fields});
      }
      if (ts_tree_cursor_goto_first_child(&c)) continue;
      fields.pop_back();
      bool moved = false;
      while (!(moved = ts_tree_cursor_goto_next_sibling(&c))) {
        if (!ts_tree_cursor_goto_parent(&c)) break;
        fields.pop_back();
      }
      if (!moved) break;
    }
    ts_tree_cursor_delete(&c);
  }
  std::unique_ptr<bool[]> keep = std::make_unique<bool[]>(keep_table.size());
  for (std::size_t i = 0; i < keep_table.size(); ++i) keep[i] = keep_table[i];
  LaunchlintTreeWalk* w = launchlint_tree_walk_new(root);
  launchlint_tree_walk_keep(w, keep.get(), static_cast<std::uint32_t>(keep_table.size()));
  LaunchlintTreeStep step{};
  std::size_t i = 0;
  while (launchlint_tree_walk_next(w, true, &step)) {
    REQUIRE(i < expected.size());
    INFO("kept node " << i << " at byte " << ts_node_start_byte(step.node));
    REQUIRE(step.node.id == expected[i].id);
    REQUIRE(step.depth == expected[i].depth);
    for (std::uint32_t d = 0; d <= step.depth; ++d) {
      INFO("ancestor at depth " << d);
      REQUIRE(launchlint_tree_walk_ancestor_field(w, d) == expected[i].fields[d]);
    }
    ++i;
  }
  CHECK(i == expected.size());
  launchlint_tree_walk_delete(w);
}

/// The walk gives exactly the cursor's nodes, depths and fields, with and without skipped subtrees.
void check_same(const TSLanguage* language, const std::string& text, const std::string& what) {
  TSParser* parser = ts_parser_new();
  REQUIRE(ts_parser_set_language(parser, language));
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<std::uint32_t>(text.size()));
  REQUIRE(tree != nullptr);
  const TSNode root = ts_tree_root_node(tree);
  const std::vector<Skip> skips = {[](TSNode) { return false; },
                                   [](TSNode n) { return ts_node_start_byte(n) % 3 == 0; },
                                   [](TSNode n) { return ts_node_is_named(n) && ts_node_child_count(n) > 3; }};
  for (const Skip& skip : skips) {
    INFO(what);
    const std::vector<Seen> expected = with_cursor(root, skip);
    const std::vector<Seen> got = with_walk(root, skip);
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO("node " << i << " at byte " << expected[i].start);
      REQUIRE(got[i] == expected[i]);
    }
  }
  // The node queries agree with the runtime's on every node and every field.
  {
    const std::vector<Seen> all = with_cursor(root, [](TSNode) { return false; });
    TSTreeCursor c = ts_tree_cursor_new(root);
    std::vector<TSNode> nodes;
    for (;;) {
      nodes.push_back(ts_tree_cursor_current_node(&c));
      if (ts_tree_cursor_goto_first_child(&c)) continue;
      bool moved = false;
      while (!(moved = ts_tree_cursor_goto_next_sibling(&c))) {
        if (!ts_tree_cursor_goto_parent(&c)) break;
      }
      if (!moved) break;
    }
    ts_tree_cursor_delete(&c);
    const std::uint32_t fields = ts_language_field_count(language);
    for (const TSNode n : nodes) {
      for (TSFieldId f = 0; f <= fields; ++f) {
        const TSNode expected = ts_node_child_by_field_id(n, f);
        const TSNode got = launchlint_child_by_field_id(n, f);
        INFO(what << ": node at byte " << ts_node_start_byte(n) << ", field " << f);
        REQUIRE(ts_node_is_null(got) == ts_node_is_null(expected));
        if (ts_node_is_null(expected)) continue;
        REQUIRE(ts_node_eq(got, expected));
        REQUIRE(ts_node_start_byte(got) == ts_node_start_byte(expected));
        REQUIRE(ts_node_start_point(got).row == ts_node_start_point(expected).row);
        REQUIRE(ts_node_symbol(got) == ts_node_symbol(expected));
      }
      const std::uint32_t count = ts_node_named_child_count(n);
      std::vector<TSNode> got(count + 1);
      REQUIRE(launchlint_named_children(n, got.data(), count + 1) == count);
      for (std::uint32_t i = 0; i < count; ++i) {
        const TSNode expected = ts_node_named_child(n, i);
        REQUIRE(ts_node_eq(got[i], expected));
        REQUIRE(ts_node_start_byte(got[i]) == ts_node_start_byte(expected));
        REQUIRE(ts_node_start_point(got[i]).row == ts_node_start_point(expected).row);
        REQUIRE(ts_node_symbol(got[i]) == ts_node_symbol(expected));
      }
    }
    CHECK(all.size() == nodes.size());
  }
  // Keep tables: every third kind, and the kinds that hold the others (calls, blocks, strings...).
  {
    const std::uint32_t symbols = ts_language_symbol_count(language);
    std::vector<bool> every_third(symbols);
    std::vector<bool> named_only(symbols);
    for (std::uint32_t s = 0; s < symbols; ++s) {
      every_third[s] = s % 3 == 0;
      named_only[s] = ts_language_symbol_type(language, static_cast<TSSymbol>(s)) == TSSymbolTypeRegular && s % 2 == 1;
    }
    INFO(what);
    check_kept(root, every_third);
    check_kept(root, named_only);
  }
  // A subtree as the root: the walk starts there, at depth 0.
  const TSNode first = ts_node_named_child(root, 0);
  if (!ts_node_is_null(first)) {
    const Skip none = [](TSNode) { return false; };
    CHECK(with_walk(first, none) == with_cursor(first, none));
  }
  ts_tree_delete(tree);
  ts_parser_delete(parser);
}

/// The fact walk's subtree skipping (launchlint_tree_walk_skip_small with python_facts.cpp's table) passes over
/// no node the extraction acts on: with the fact walk's keep table, the nodes of those kinds it returns, their
/// depths and their ancestors' fields are the same with and without it.
void check_skip_small(const std::string& text, const std::string& what) {
  const lint::model::detail::PythonWalkTables t = lint::model::detail::python_walk_tables();
  TSParser* parser = ts_parser_new();
  REQUIRE(ts_parser_set_language(parser, tree_sitter_python()));
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<std::uint32_t>(text.size()));
  REQUIRE(tree != nullptr);
  struct Got {
    const void* id;
    std::uint32_t depth;
    std::vector<TSFieldId> fields;
    bool operator==(const Got&) const = default;
  };
  auto walk = [&](bool skip_small) {
    std::vector<Got> out;
    LaunchlintTreeWalk* w = launchlint_tree_walk_new(ts_tree_root_node(tree));
    launchlint_tree_walk_keep(w, t.walked, t.count);
    if (skip_small) launchlint_tree_walk_skip_small(w, t.min_descendants, t.count);
    LaunchlintTreeStep step{};
    bool descend = true;
    while (launchlint_tree_walk_next(w, descend, &step)) {
      descend = true;
      // Plain strings and ERROR nodes: returned, never acted on (an ERROR's content is), and skipping passes over
      // some.
      if (step.symbol >= t.count || !t.acted_on[step.symbol]) continue;
      Got g{step.node.id, step.depth, {}};
      for (std::uint32_t d = 0; d <= step.depth; ++d) g.fields.push_back(launchlint_tree_walk_ancestor_field(w, d));
      out.push_back(std::move(g));
    }
    launchlint_tree_walk_delete(w);
    return out;
  };
  const std::vector<Got> all = walk(false);
  const std::vector<Got> skipping = walk(true);
  INFO(what);
  REQUIRE(skipping.size() == all.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    INFO("node " << i);
    REQUIRE(skipping[i] == all[i]);
  }
  ts_tree_delete(tree);
  ts_parser_delete(parser);
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("tree_walk: every Python and shell file of the repository walks as the cursor does", "[tree_walk]") {
  std::size_t files = 0;
  for (const char* dir : {"fixtures", "tests", "bench", "docs", "examples"}) {
    const std::filesystem::path root = std::filesystem::path(LAUNCHLINT_SOURCE_DIR) / dir;
    if (!std::filesystem::exists(root)) continue;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
      if (!e.is_regular_file() || e.file_size() > 1'000'000) continue;
      const std::string ext = e.path().extension().string();
      if (ext == ".py") {
        check_same(tree_sitter_python(), read(e.path()), e.path().string());
        check_skip_small(read(e.path()), e.path().string());
        ++files;
      } else if (ext == ".sh") {
        check_same(tree_sitter_bash(), read(e.path()), e.path().string());
        ++files;
      }
    }
  }
  CHECK(files > 100);
}

TEST_CASE("tree_walk: broken and unusual Python walks as the cursor does", "[tree_walk]") {
  const std::vector<std::string> inputs = {
      "",
      "x",
      "def f(:\n  return (\n",
      "class A:\n    def f(self): pass\n  x = )\n",
      "f(a, *b, **c, d=e)\nlambda x, *y: x\n[x for x in y if x]\n{k: v for k, v in d}\n",
      "match x:\n    case [a, *rest] if a: pass\n    case {'k': v} as w: pass\n",
      "async def f():\n    async with a as b, c as d:\n        await e\n",
      "x = f'{a!r:>{w}} {b=}'\ny = rb'\\x' 'c'\n",
      "try:\n    import a.b as c\nexcept (E, F) as e:\n    global g\n    del h\n",
      "if a:\n\tb\n        c\n",
      "@d\n@e(1)\ndef f[T](x: T = 1, /, *, y: int) -> T:\n    yield from x\n",
      "print 'python 2'\nexec \"x\"\n",
      "((((((((((",
      "a = [\n# comment\n1, # another\n]\n",
      // Statements and patterns where error recovery puts them (the walk's subtree skipping must keep them).
      "def f(global x): pass\n",
      "x.(del y)\nf(k=global a)\na[import b]\n(nonlocal c).d\n",
      "with a as b: pass\n(c as d)\nf(e as g)\nx = h as i\n",
      "f(lambda: 0)\nx.y = lambda: 1\nz = a or (b := 2)\nk(w=(v := 3))\n",
      "x = a.b(\ny = c[d(]\nz = {e: f(}\n",
      "a + global b\nc < del d\n",
  };
  for (const std::string& text : inputs) {
    check_same(tree_sitter_python(), text, text);
    check_skip_small(text, text);
  }
}
