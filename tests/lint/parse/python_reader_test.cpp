#include "lint/parse/python_reader.hpp"

#include <tree_sitter/api.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <string>

#include "lint/parse/tree_sitter_support.hpp"
#include "tests/support/time_limits.hpp"

using lint::parse::PythonTree;
using lint::source::Position;
using lint::source::SourceFile;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string repeat(const std::string& s, std::size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (std::size_t i = 0; i < n; ++i) out += s;
  return out;
}

}  // namespace

TEST_CASE("python_reader: a valid file has a tree and no errors", "[python_reader]") {
  const SourceFile file("train.py", "import torch\n\ndef main():\n    model = torch.nn.Linear(2, 2)\n");
  const PythonTree tree = PythonTree::parse(file);
  REQUIRE(tree.tree() != nullptr);
  CHECK(tree.errors().empty());
}

TEST_CASE("python_reader: an empty file parses cleanly", "[python_reader]") {
  const SourceFile file("empty.py", "");
  const PythonTree tree = PythonTree::parse(file);
  REQUIRE(tree.tree() != nullptr);
  CHECK(tree.errors().empty());
}

TEST_CASE("python_reader: error columns count code points, after a tab and a multi-byte character", "[python_reader]") {
  // Line 2: x(1) ' '(2) =(3) ' '(4) "(5) é(6) "(7) tab(8) $(9). The ERROR node starts at the string.
  const std::string body = "y = 1\nx = \"\xC3\xA9\"\t$ 2\nfoo(a=1)\n";
  const SourceFile file("bad.py", body);
  const PythonTree tree = PythonTree::parse(file);
  REQUIRE(tree.tree() != nullptr);
  REQUIRE(tree.errors().size() == 1);
  const auto& e = tree.errors().front();
  CHECK(e.message == "invalid syntax");
  CHECK(e.region.begin == Position{2, 5});
  CHECK(e.region.end == Position{2, 10});  // just after `$`
  CHECK(e.region.begin_byte == 10);

  SECTION("the same with CRLF line ends") {
    const SourceFile crlf("bad.py", "y = 1\r\nx = \"\xC3\xA9\"\t$ 2\r\nfoo(a=1)\r\n");
    const PythonTree t = PythonTree::parse(crlf);
    REQUIRE(t.errors().size() == 1);
    CHECK(t.errors().front().region.begin == Position{2, 5});
    CHECK(t.errors().front().region.end == Position{2, 10});
  }
}

TEST_CASE("python_reader: a missing token is named in the message at its exact position", "[python_reader]") {
  const SourceFile file("bad.py", "def f(:\n  pass\n");
  const PythonTree tree = PythonTree::parse(file);
  REQUIRE(tree.errors().size() == 1);
  CHECK(tree.errors().front().message == "missing ')'");
  CHECK(tree.errors().front().region.begin == Position{1, 7});
  CHECK(tree.errors().front().region.end == Position{1, 7});
}

TEST_CASE("python_reader: errors are in document order, at most one per line", "[python_reader]") {
  const SourceFile file("bad.py", "def f(:\n  pass\nclass A\n  x = 1\nok = 1\n");
  const PythonTree tree = PythonTree::parse(file);
  REQUIRE(tree.errors().size() == 2);
  CHECK(tree.errors()[0].region.begin.line == 1);
  CHECK(tree.errors()[1].region.begin.line == 3);
  CHECK(tree.errors()[1].region.begin.column == 1);
  // An ERROR node's underline stops at the end of its first line.
  CHECK(tree.errors()[1].region.end.line == 3);
}

TEST_CASE("python_reader: a lone CR ends a line as in Python", "[python_reader]") {
  // tree-sitter-python alone treats a lone CR as a space and reports nonsense here.
  const SourceFile file("mac.py", "x = 1\ry = f(2)\r");
  const PythonTree tree = PythonTree::parse(file);
  REQUIRE(tree.tree() != nullptr);
  CHECK(tree.errors().empty());
}

TEST_CASE("python_reader: a UTF-8 BOM is accepted", "[python_reader]") {
  const SourceFile file("bom.py", "\xEF\xBB\xBFx = 1\n");
  CHECK(PythonTree::parse(file).errors().empty());
}

TEST_CASE("python_reader: invalid UTF-8 and NUL bytes do not crash", "[python_reader]") {
  const SourceFile file("bin.py", std::string("x = \"\xFF\xFE\x80\"\ny = '\xC3'\n\0\x01 z = 1\n", 24));
  const PythonTree tree = PythonTree::parse(file);
  for (const auto& e : tree.errors()) CHECK(e.region.valid());
}

TEST_CASE("python_reader: 100k nested parentheses neither crash nor hang", "[python_reader][limits]") {
  const auto start = std::chrono::steady_clock::now();
  SECTION("balanced") {
    const SourceFile file("deep.py", "x = " + repeat("(", 100000) + "1" + repeat(")", 100000) + "\n");
    const PythonTree tree = PythonTree::parse(file);
    REQUIRE(tree.errors().size() == 1);
    // CPython's own limit: the 201st bracket is the error, at its exact place.
    CHECK(tree.errors().front().message.find("too many nested parentheses") != std::string::npos);
    CHECK(tree.errors().front().region.begin == Position{1, 5 + 200});
  }
  SECTION("never closed") {
    const SourceFile file("deep.py", "x = " + repeat("[", 100000) + "\n");
    CHECK_FALSE(PythonTree::parse(file).errors().empty());
  }
  SECTION("moderate nesting still parses") {
    const SourceFile file("deep.py", "x = " + repeat("(", 150) + "1" + repeat(")", 150) + "\n");
    const PythonTree tree = PythonTree::parse(file);
    REQUIRE(tree.tree() != nullptr);
    CHECK(tree.errors().empty());
  }
  CHECK(seconds_since(start) < 2.0 * lint::testing::kTimeFactor);
}

TEST_CASE("python_reader: long chains that pile up on the parse stack are refused, not crashed on",
          "[python_reader][limits]") {
  // Each of these crashed Debian's tree-sitter 0.20.7 (16-bit child count) before the limit scan.
  const char* shapes[] = {"not ", "x = ", "2 ** ", "-", "lambda: ", "a if b else ", "(1, "};
  for (const char* shape : shapes) {
    CAPTURE(shape);
    const SourceFile file("chain.py", "x = " + repeat(shape, 70000) + "\n");
    const PythonTree tree = PythonTree::parse(file);
    CHECK_FALSE(tree.errors().empty());
  }
}

TEST_CASE("python_reader: long flat constructs are not mistaken for deep ones", "[python_reader][limits]") {
  SECTION("a list literal of 100k items") {
    const SourceFile file("data.py", "DATA = [" + repeat("1, ", 100000) + "]\n");
    const PythonTree tree = PythonTree::parse(file);
    REQUIRE(tree.tree() != nullptr);
    CHECK(tree.errors().empty());
  }
  SECTION("a sum of 30k terms, and 30k implicitly concatenated strings") {
    const SourceFile file("data.py", "x = 1" + repeat(" + a.b", 30000) + "\ns = (" + repeat("'ab'\n", 30000) + ")\n");
    const PythonTree tree = PythonTree::parse(file);
    REQUIRE(tree.tree() != nullptr);
    CHECK(tree.errors().empty());
  }
  SECTION("brackets and operators inside strings and comments do not count") {
    const SourceFile file("text.py", "s = '" + repeat("(", 1000) + "'  # " + repeat("[", 1000) + "\nt = f'{1}" +
                                         repeat("not ", 20000) + "'\n");
    const PythonTree tree = PythonTree::parse(file);
    REQUIRE(tree.tree() != nullptr);
    CHECK(tree.errors().empty());
  }
  SECTION("replacement fields of f-strings do count") {
    const SourceFile file("f.py", "t = f'{" + repeat("(", 300) + "1" + repeat(")", 300) + "}'\n");
    const PythonTree tree = PythonTree::parse(file);
    REQUIRE(tree.errors().size() == 1);
    CHECK(tree.errors().front().message.find("nested parentheses") != std::string::npos);
  }
}

TEST_CASE("python_reader: too many indentation levels are refused", "[python_reader][limits]") {
  std::string text;
  for (int i = 0; i < 150; ++i) text += std::string(static_cast<std::size_t>(i), ' ') + "if x:\n";
  text += std::string(150, ' ') + "pass\n";
  const SourceFile file("indent.py", text);
  const PythonTree tree = PythonTree::parse(file);
  REQUIRE(tree.errors().size() == 1);
  CHECK(tree.errors().front().message.find("indentation") != std::string::npos);
  CHECK(tree.errors().front().region.begin.line == 102);
}

TEST_CASE("python_reader: a large valid file parses", "[python_reader]") {
  const SourceFile file("big.py", repeat("x = foo(1, b=[2, 3], c={'d': 4})  # comment\n", 20000));
  const auto start = std::chrono::steady_clock::now();
  const PythonTree tree = PythonTree::parse(file);
  REQUIRE(tree.tree() != nullptr);
  CHECK(tree.errors().empty());
  CHECK(seconds_since(start) < 5.0 * lint::testing::kTimeFactor);
}

TEST_CASE("python_reader: PythonTree moves", "[python_reader]") {
  const SourceFile file("m.py", "x = (\n");
  PythonTree a = PythonTree::parse(file);
  const auto errors = a.errors().size();
  PythonTree b = std::move(a);
  CHECK(b.tree() != nullptr);
  CHECK(b.errors().size() == errors);
  PythonTree c = PythonTree::parse(SourceFile("n.py", "y = 1\n"));
  c = std::move(b);
  CHECK(c.tree() != nullptr);
  CHECK(c.errors().size() == errors);
}

TEST_CASE("python_reader: a notebook export's shell escapes and magics are not syntax errors", "[python_reader]") {
  const std::string body =
      "x = 1\n"
      "\n"
      "!deepspeed --num_gpus={n} \\\n"
      "    --module training.trainer \\\n"
      "    --epochs 2\n"
      "%pip install peft\n"
      "y = (x\n";
  // Databricks' source format: the escapes are skipped, the real error on the last line stays where it is.
  const SourceFile notebook("nb.py", "# Databricks notebook source\n" + body);
  const PythonTree t = PythonTree::parse(notebook);
  REQUIRE(t.errors().size() == 1);
  CHECK(t.errors().front().region.begin.line == 8);
  // Percent cells (jupytext / VS Code) likewise.
  const SourceFile cells("cells.py", "# %%\n" + body.substr(0, body.size() - 7));
  CHECK(PythonTree::parse(cells).errors().empty());
  // A plain script with the same lines is not a notebook: Python cannot run it.
  const SourceFile plain("plain.py", body.substr(0, body.size() - 7));
  CHECK_FALSE(PythonTree::parse(plain).errors().empty());
}

TEST_CASE("python_reader: a parse that outgrows its memory budget stops with its reason", "[python_reader]") {
  // One statement of many one-character tokens costs the runtime hundreds of bytes per byte (a 24 MB list literal
  // took 5 GB and aborted before the budget existed). Here a 200 KB one under a 4 MiB budget.
  const std::string text = "d = [" + repeat("0,", 100 * 1024) + "]\n";
  TSParser* parser = ts_parser_new();
  REQUIRE(ts_parser_set_language(parser, tree_sitter_python()));
  lint::parse::ParseStop stop = lint::parse::ParseStop::None;
  TSTree* tree =
      lint::parse::parse_with_budgets(parser, text, lint::parse::parse_budget_ns(text.size()), 4 << 20, &stop);
  CHECK(tree == nullptr);
  CHECK(stop == lint::parse::ParseStop::Memory);
  CHECK(lint::parse::parse_stop_message(stop, 0, text.size()) == "parsing stopped at 259 MiB of memory");
  ts_parser_reset(parser);
  // The same text under the budget of its size parses.
  tree = lint::parse::parse_with_budget(parser, text, lint::parse::parse_budget_ns(text.size()), &stop);
  CHECK(tree != nullptr);
  CHECK(stop == lint::parse::ParseStop::None);
  if (tree != nullptr) ts_tree_delete(tree);
  ts_parser_delete(parser);
}
